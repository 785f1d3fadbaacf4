#pragma once
// The protocol-buffer wire format, written by hand (varints, fixed32 and length-delimited fields)
// for the few messages lbd writes (the ONNX model of `lbd export --onnx`), so that no protobuf
// library or generated code is a dependency. Fields are appended in the order they are written;
// repeated scalars are written unpacked (one tag per value), which every parser reads for both
// proto2 and proto3 schemas.
#include <cstdint>
#include <string>
#include <string_view>

namespace lbd {

class ProtobufWriter {
public:
    // Wire type 0: int32, int64, uint64, bool and enum fields (negative values as ten bytes,
    // two's complement, as protobuf does for int32/int64).
    void varintField(int field, int64_t value);
    // Wire type 5: float fields.
    void floatField(int field, float value);
    // Wire type 2: string, bytes and embedded-message fields.
    void bytesField(int field, std::string_view bytes);
    void messageField(int field, const ProtobufWriter& message) { bytesField(field, message.bytes()); }

    const std::string& bytes() const { return m_bytes; }

private:
    void tag(int field, int wireType);
    void varint(uint64_t value);

    std::string m_bytes;
};

} // namespace lbd
