#include "core/util/protobufwriter.h"

#include <cstring>

namespace lbd {

void ProtobufWriter::varint(uint64_t value)
{
    while (value >= 0x80) {
        m_bytes.push_back(static_cast<char>((value & 0x7f) | 0x80));
        value >>= 7;
    }
    m_bytes.push_back(static_cast<char>(value));
}

void ProtobufWriter::tag(int field, int wireType)
{
    varint((static_cast<uint64_t>(field) << 3) | static_cast<uint64_t>(wireType));
}

void ProtobufWriter::varintField(int field, int64_t value)
{
    tag(field, 0);
    varint(static_cast<uint64_t>(value));
}

void ProtobufWriter::floatField(int field, float value)
{
    tag(field, 5);
    uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    for (int i = 0; i < 4; ++i) { // little-endian, whatever the host
        m_bytes.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
    }
}

void ProtobufWriter::bytesField(int field, std::string_view bytes)
{
    tag(field, 2);
    varint(bytes.size());
    m_bytes.append(bytes.data(), bytes.size());
}

} // namespace lbd
