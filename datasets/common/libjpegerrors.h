#pragma once
// libjpeg-turbo's error manager as both of our libjpeg readers use it (imagedecoder_libjpeg.cpp in
// the build without OpenCV, cmykjpeg_opencv.cpp for CMYK files in the OpenCV build): an error
// longjmps back to the step that started it, keeping libjpeg's message; data that ends early is an
// error too (libjpeg would fill the rest of the image with grey), other warnings (extraneous bytes
// before a marker, ...) are ignored, as OpenCV's decoder ignores them. Include after <jpeglib.h>.
#include <csetjmp>

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

} // namespace lbd::libjpeg
