#pragma once
// libjpeg-turbo's error manager and the JPEG reader both of our libjpeg decoders use
// (imagedecoder_libjpeg.cpp in the build without OpenCV, cmykjpeg_opencv.cpp for CMYK files in the
// OpenCV build): an error longjmps back to the step that started it, keeping libjpeg's message;
// data that ends early is an error too (libjpeg would fill the rest of the image with grey), other
// warnings (extraneous bytes before a marker, ...) are ignored, as OpenCV's decoder ignores them.
// Include after <jpeglib.h>.
#include <csetjmp>
#include <cstddef>
#include <cstdint>

#include <jerror.h>

namespace lbd::libjpeg {

// libjpeg's error manager, extended with where to jump and the message of the error. `manager`
// first: libjpeg hands the callbacks a pointer to it, which is a pointer to the whole.
struct Errors {
    jpeg_error_mgr manager{};
    std::jmp_buf jump{};
    char message[JMSG_LENGTH_MAX] = {};
};

[[noreturn]] inline void jumpOnError(j_common_ptr info)
{
    auto* errors = reinterpret_cast<Errors*>(info->err);
    info->err->format_message(info, errors->message);
    std::longjmp(errors->jump, 1);
}

inline void onMessage(j_common_ptr info, int level)
{
    if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) {
        jumpOnError(info);
    }
}

// Points a decompressor's `info` at `errors` with the two callbacks above.
template <typename JpegInfo>
void installErrors(JpegInfo& info, Errors& errors)
{
    info.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = jumpOnError;
    errors.manager.emit_message = onMessage;
}

// One JPEG in memory being decoded; each step returns false on a libjpeg error (message()). The
// steps' frames hold nothing with a destructor (libjpeg longjmps out of them); the bytes are the
// caller's and must outlive the reader.
class Reader {
public:
    Reader(const uint8_t* data, size_t size) : m_data(data), m_size(size) { installErrors(m_info, m_errors); }
    ~Reader()
    {
        if (m_created) {
            jpeg_destroy_decompress(&m_info);
        }
    }
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;

    bool readHeader()
    {
        if (setjmp(m_errors.jump)) {
            return false;
        }
        m_created = true;
        jpeg_create_decompress(&m_info);
        jpeg_mem_src(&m_info, const_cast<unsigned char*>(m_data), static_cast<unsigned long>(m_size));
        jpeg_read_header(&m_info, TRUE);
        return true;
    }

    // Sets the output colour space and the DCT scale 1/denominator, and starts decoding: the output
    // size and components are known after it.
    bool start(J_COLOR_SPACE output, unsigned denominator)
    {
        if (setjmp(m_errors.jump)) {
            return false;
        }
        m_info.out_color_space = output;
        m_info.scale_num = 1;
        m_info.scale_denom = denominator;
        m_info.dct_method = JDCT_ISLOW;
        jpeg_start_decompress(&m_info);
        return true;
    }

    // Decodes every row into `pixels` (output_height x output_width x output_components bytes).
    bool readRows(uint8_t* pixels)
    {
        if (setjmp(m_errors.jump)) {
            return false;
        }
        const size_t stride = static_cast<size_t>(m_info.output_width) * static_cast<size_t>(m_info.output_components);
        while (m_info.output_scanline < m_info.output_height) {
            JSAMPROW row = pixels + m_info.output_scanline * stride;
            jpeg_read_scanlines(&m_info, &row, 1);
        }
        jpeg_finish_decompress(&m_info);
        return true;
    }

    const jpeg_decompress_struct& info() const { return m_info; }
    const char* message() const { return m_errors.message; }

private:
    const uint8_t* m_data;
    size_t m_size;
    Errors m_errors;
    jpeg_decompress_struct m_info{};
    bool m_created = false;
};

} // namespace lbd::libjpeg
