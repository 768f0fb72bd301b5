/* Japanese readings with MeCab, for the types declared with `--transliterate latin`: 抹茶ラテ is read as the
 * morphemes 抹茶 (マッチャ) and ラテ, so that it is also found by `まっちゃ` and `matcha`.
 *
 * The model (the system dictionary, about 50 MB mapped) is loaded once per process, on the first text that needs
 * it; MeCab's model is shared between threads, its tagger and lattice are not, so each thread makes its own on
 * first use and they are destroyed when it exits. The dictionary is the one /etc/mecabrc names (Debian points it
 * at the installed dictionary through the `mecab-dictionary` alternative), or else ipadic-utf8 by name: only a
 * UTF-8 dictionary is used, since the text is UTF-8.
 * https://taku910.github.io/mecab/libmecab.html */

#include "CEntityIdx.h"

#include <mecab.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static mecab_model_t *model;
static pthread_once_t model_once = PTHREAD_ONCE_INIT;

typedef struct {
    mecab_t *tagger;
    mecab_lattice_t *lattice;
} reader;

static _Thread_local reader tr;
static pthread_key_t release_key;

static void release_reader(void *p) {
    reader *r = p;
    if (r->lattice) mecab_lattice_destroy(r->lattice);
    if (r->tagger) mecab_destroy(r->tagger);
    memset(r, 0, sizeof *r);
}

static int is_utf8(mecab_model_t *m) {
    const mecab_dictionary_info_t *info = mecab_model_dictionary_info(m);
    return info && info->charset && (strcasecmp(info->charset, "utf-8") == 0 || strcasecmp(info->charset, "utf8") == 0);
}

static void load_model(void) {
    static const char *args[] = {"", "-d /var/lib/mecab/dic/ipadic-utf8"};
    for (size_t i = 0; i < sizeof args / sizeof *args && !model; i++) {
        mecab_model_t *m = mecab_model_new2(args[i]);
        if (m && is_utf8(m)) model = m;
        else if (m) mecab_model_destroy(m);
    }
    pthread_key_create(&release_key, release_reader);
}

/* The thread's tagger and lattice, made on first use; 0 when there is no dictionary. */
static int thread_reader(void) {
    if (tr.lattice) return 1;
    pthread_once(&model_once, load_model);
    if (!model) return 0;
    tr.tagger = mecab_model_new_tagger(model);
    tr.lattice = mecab_model_new_lattice(model);
    if (!tr.tagger || !tr.lattice) {
        release_reader(&tr);
        return 0;
    }
    pthread_setspecific(release_key, &tr);
    return 1;
}

/* The `index`th comma-separated field of a feature string (ipadic: 7 reading, 8 pronunciation), or NULL. */
static const char *field(const char *feature, int index, int32_t *length) {
    const char *p = feature;
    for (int i = 0; i < index; i++) {
        p = strchr(p, ',');
        if (!p) return NULL;
        p++;
    }
    const char *end = strchr(p, ',');
    *length = end ? (int32_t)(end - p) : (int32_t)strlen(p);
    if (*length == 1 && *p == '*') return NULL;
    return p;
}

int32_t eidx_readings(const char *utf8, int32_t length, eidx_morpheme *out, int32_t capacity, char *text,
                      int32_t textCapacity, int32_t *needed, int32_t *textNeeded) {
    if (!thread_reader()) return -3;
    mecab_lattice_set_sentence2(tr.lattice, utf8, (size_t)length);
    if (!mecab_parse_lattice(tr.tagger, tr.lattice)) return -1;
    int32_t count = 0, used = 0;
    for (const mecab_node_t *n = mecab_lattice_get_bos_node(tr.lattice); n; n = n->next) {
        if (n->stat == MECAB_BOS_NODE || n->stat == MECAB_EOS_NODE) continue;
        eidx_morpheme m = {0};
        m.start = (int32_t)(n->surface - utf8);
        m.end = m.start + n->length;
        int32_t rl = 0, pl = 0;
        const char *r = n->feature ? field(n->feature, 7, &rl) : NULL;
        const char *p = n->feature ? field(n->feature, 8, &pl) : NULL;
        if (!r) rl = 0;
        if (!p) pl = 0;
        if (count < capacity && used + rl + pl <= textCapacity) {
            m.reading = used;
            m.readingLength = rl;
            if (rl) memcpy(text + used, r, (size_t)rl);
            m.pronunciation = used + rl;
            m.pronunciationLength = pl;
            if (pl) memcpy(text + used + rl, p, (size_t)pl);
            out[count] = m;
        }
        count++;
        used += rl + pl;
    }
    *needed = count;
    *textNeeded = used;
    return count > capacity || used > textCapacity ? -2 : count;
}

int32_t eidx_reading_dictionary(char *buffer, int32_t capacity) {
    pthread_once(&model_once, load_model);
    if (!model || capacity <= 0) return 0;
    const mecab_dictionary_info_t *info = mecab_model_dictionary_info(model);
    int n = snprintf(buffer, (size_t)capacity, "%s %u %u", info->charset, (unsigned)info->version, info->size);
    return n < 0 ? 0 : (n >= capacity ? capacity - 1 : n);
}
