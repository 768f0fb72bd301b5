#include "CEntityIdx.h"

#include <zlib.h>

/* One deflate and one inflate stream per thread, reset between records: initializing a stream allocates and clears
 * its window and hash table (about 256 KiB), which costs more than compressing a small record. Kept for the
 * thread's lifetime, like the ICU objects. */
static _Thread_local z_stream deflater, inflater;
static _Thread_local int deflater_ready, inflater_ready;

long eidx_deflate(const uint8_t *input, size_t length, uint8_t *output, size_t capacity) {
    if (!deflater_ready) {
        if (deflateInit2(&deflater, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
        deflater_ready = 1;
    } else if (deflateReset(&deflater) != Z_OK) {
        return -1;
    }
    deflater.next_in = (Bytef *)input;
    deflater.avail_in = (uInt)length;
    deflater.next_out = output;
    deflater.avail_out = (uInt)capacity;
    if (deflate(&deflater, Z_FINISH) != Z_STREAM_END) return -1;
    return (long)(capacity - deflater.avail_out);
}

size_t eidx_deflate_bound(size_t length) { return (size_t)compressBound((uLong)length) + 16; }

long eidx_inflate(const uint8_t *input, size_t length, uint8_t *output, size_t capacity) {
    if (!inflater_ready) {
        if (inflateInit2(&inflater, -15) != Z_OK) return -1;
        inflater_ready = 1;
    } else if (inflateReset(&inflater) != Z_OK) {
        return -1;
    }
    inflater.next_in = (Bytef *)input;
    inflater.avail_in = (uInt)length;
    inflater.next_out = output;
    inflater.avail_out = (uInt)capacity;
    int rc = inflate(&inflater, Z_FINISH);
    if (rc != Z_STREAM_END || inflater.avail_in != 0) return -1;
    return (long)(capacity - inflater.avail_out);
}
