#ifndef LCTRACE_CZLIB_SHIM_H
#define LCTRACE_CZLIB_SHIM_H

#include <zlib.h>

/// inflateInit2 is a macro: this is the call it stands for, with gzip decoding (window bits 15 + 16).
static inline int lctrace_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}

#endif
