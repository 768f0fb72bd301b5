#include "CEntityIdx.h"

#include <stdlib.h>
#include <string.h>
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

/* ---- zstd with a dictionary ----------------------------------------------------------------------------------
 * Records of one application share most of their bytes (member names, types, enumerations), which a record of a
 * kilobyte cannot exploit alone: a dictionary trained on a few thousand of them halves what deflate leaves, and
 * zstd decompresses a record several times faster. */

#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

typedef struct {
    ZSTD_CDict *compress;
    ZSTD_DDict *decompress;
} eidx_dictionary;

static _Thread_local ZSTD_CCtx *compressor;
static _Thread_local ZSTD_DCtx *decompressor;

size_t eidx_zstd_train(const uint8_t *samples, const size_t *sizes, unsigned count, uint32_t dict_id,
                       uint8_t *dictionary, size_t capacity) {
    ZDICT_fastCover_params_t params;
    memset(&params, 0, sizeof params);
    params.d = 8;
    params.steps = 4;
    params.accel = 1;
    params.zParams.compressionLevel = 3;
    params.zParams.dictID = dict_id;
    size_t size = ZDICT_optimizeTrainFromBuffer_fastCover(dictionary, capacity, samples, sizes, count, &params);
    if (ZDICT_isError(size) || ZDICT_getDictID(dictionary, size) != dict_id) return 0;
    return size;
}

void *eidx_zstd_dictionary(const uint8_t *bytes, size_t length) {
    if (ZDICT_getDictID(bytes, length) == 0) return NULL;
    eidx_dictionary *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->compress = ZSTD_createCDict(bytes, length, 3);
    d->decompress = ZSTD_createDDict(bytes, length);
    if (!d->compress || !d->decompress) {
        eidx_zstd_dictionary_free(d);
        return NULL;
    }
    return d;
}

void eidx_zstd_dictionary_free(void *dictionary) {
    eidx_dictionary *d = dictionary;
    if (!d) return;
    ZSTD_freeCDict(d->compress);
    ZSTD_freeDDict(d->decompress);
    free(d);
}

uint32_t eidx_zstd_dictionary_id(const uint8_t *bytes, size_t length) {
    return (uint32_t)ZDICT_getDictID(bytes, length);
}

size_t eidx_zstd_bound(size_t length) { return ZSTD_compressBound(length); }

long eidx_zstd_compress(const void *dictionary, const uint8_t *input, size_t length, uint8_t *output,
                        size_t capacity) {
    const eidx_dictionary *d = dictionary;
    if (!compressor && !(compressor = ZSTD_createCCtx())) return -1;
    size_t n = ZSTD_compress_usingCDict(compressor, output, capacity, input, length, d->compress);
    return ZSTD_isError(n) ? -1 : (long)n;
}

int eidx_zstd_frame(const uint8_t *input, size_t length, uint64_t *content_size, uint32_t *dict_id) {
    unsigned long long size = ZSTD_getFrameContentSize(input, length);
    if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR) return -1;
    *content_size = size;
    *dict_id = ZSTD_getDictID_fromFrame(input, length);
    return 0;
}

long eidx_zstd_decompress(const void *dictionary, const uint8_t *input, size_t length, uint8_t *output,
                          size_t capacity) {
    const eidx_dictionary *d = dictionary;
    if (!decompressor && !(decompressor = ZSTD_createDCtx())) return -1;
    size_t n = ZSTD_decompress_usingDDict(decompressor, output, capacity, input, length, d->decompress);
    return ZSTD_isError(n) ? -1 : (long)n;
}

void eidx_record_codec_thread_end(void) {
    ZSTD_freeCCtx(compressor);
    ZSTD_freeDCtx(decompressor);
    compressor = NULL;
    decompressor = NULL;
    if (deflater_ready) deflateEnd(&deflater);
    if (inflater_ready) inflateEnd(&inflater);
    deflater_ready = inflater_ready = 0;
}
