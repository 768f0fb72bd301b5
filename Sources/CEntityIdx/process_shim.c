#define _GNU_SOURCE
#include "CEntityIdx.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal = 0;

static void on_stop(int sig) { stop_signal = sig; }

void eidx_install_stop_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a blocked read returns EINTR so the loop can stop */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* A parent may have started us with these blocked (the mask is inherited); we want them delivered. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

int eidx_stop_signal(void) { return stop_signal; }

/* ---- Request budgets ------------------------------------------------------------------------------------- */

struct eidx_budget {
    double deadline; /* monotonic seconds; 0: none */
    _Atomic int cancelled;
};

static _Thread_local eidx_budget *current_budget;

static double monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

eidx_budget *eidx_budget_new(double seconds) {
    eidx_budget *budget = calloc(1, sizeof *budget);
    if (!budget) return NULL;
    budget->deadline = seconds > 0 ? monotonic_now() + seconds : 0;
    atomic_init(&budget->cancelled, 0);
    return budget;
}

void eidx_budget_free(eidx_budget *budget) { free(budget); }

void eidx_budget_cancel(eidx_budget *budget) { atomic_store(&budget->cancelled, 1); }

eidx_budget *eidx_budget_enter(eidx_budget *budget) {
    eidx_budget *previous = current_budget;
    current_budget = budget;
    return previous;
}

int eidx_budget_state(const eidx_budget *budget) {
    if (atomic_load((_Atomic int *)&budget->cancelled)) return EIDX_STOP_CANCELLED;
    if (budget->deadline > 0 && monotonic_now() > budget->deadline) return EIDX_STOP_DEADLINE;
    return EIDX_STOP_NONE;
}

int eidx_should_stop(void) {
    if (stop_signal) return EIDX_STOP_SIGNAL;
    eidx_budget *budget = current_budget;
    return budget ? eidx_budget_state(budget) : EIDX_STOP_NONE;
}

/* ---- Memory room ----------------------------------------------------------------------------------------- */

/* The first number after `key` in a "key value" file such as /proc/meminfo or a cgroup's memory.stat; -1 if none. */
static long long field_of(const char *path, const char *key) {
    FILE *f = fopen(path, "re");
    if (!f) return -1;
    char line[256];
    size_t keyLength = strlen(key);
    long long value = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, keyLength) == 0 && (line[keyLength] == ' ' || line[keyLength] == ':')) {
            value = strtoll(line + keyLength + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return value;
}

/* The first number in a file ("max" and missing files give -1). */
static long long number_in(const char *path) {
    FILE *f = fopen(path, "re");
    if (!f) return -1;
    char text[64] = {0};
    long long value = -1;
    if (fgets(text, sizeof text, f) && text[0] >= '0' && text[0] <= '9') value = strtoll(text, NULL, 10);
    fclose(f);
    return value;
}

/* Where this process's cgroup keeps its memory files: v2 (`0::/path`) and v1 (`N:memory:/path`); "" if none. */
static char cgroup_v2[512], cgroup_v1[512];

static int is_folder(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void find_cgroups(void) {
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f) return;
    char line[400];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (strncmp(line, "0::", 3) == 0) {
            snprintf(cgroup_v2, sizeof cgroup_v2, "/sys/fs/cgroup%s", line + 3);
        } else {
            char *memory = strstr(line, ":memory:");
            if (!memory) continue;
            snprintf(cgroup_v1, sizeof cgroup_v1, "/sys/fs/cgroup/memory%s", memory + 8);
            /* In a cgroup namespace the group's own files are at the root. */
            if (!is_folder(cgroup_v1)) snprintf(cgroup_v1, sizeof cgroup_v1, "/sys/fs/cgroup/memory");
        }
    }
    fclose(f);
}

/* The room a cgroup's memory limit leaves: the limit less what the group cannot reclaim (its page cache can be);
 * -1 when the files are not there or set no limit. */
static long long cgroup_room(const char *folder, const char *maxFile, const char *currentFile, const char *cacheKey) {
    if (!folder[0]) return -1;
    char path[600];
    snprintf(path, sizeof path, "%s/%s", folder, maxFile);
    long long max = number_in(path);
    if (max < 0 || max >= (1LL << 60)) return -1;
    snprintf(path, sizeof path, "%s/%s", folder, currentFile);
    long long current = number_in(path);
    if (current < 0) return -1;
    snprintf(path, sizeof path, "%s/memory.stat", folder);
    long long cache = field_of(path, cacheKey);
    long long left = max - current + (cache > 0 ? cache : 0);
    return left < 0 ? 0 : left;
}

long long eidx_memory_room(void) {
    const long long none = 0x7fffffffffffffffLL;
    long long room = none;
    long long page = sysconf(_SC_PAGESIZE);
    /* The address-space limit (ulimit -v) against the mapped size. */
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        long long pages = -1;
        FILE *f = fopen("/proc/self/statm", "re");
        if (f) {
            if (fscanf(f, "%lld", &pages) != 1) pages = -1;
            fclose(f);
        }
        if (pages >= 0) {
            long long left = (long long)limit.rlim_cur - pages * page;
            if (left < room) room = left;
        }
    }
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_cgroups);
    long long groups[2] = {
        cgroup_room(cgroup_v2, "memory.max", "memory.current", "file"),
        cgroup_room(cgroup_v1, "memory.limit_in_bytes", "memory.usage_in_bytes", "cache"),
    };
    for (int i = 0; i < 2; i++)
        if (groups[i] >= 0 && groups[i] < room) room = groups[i];
    /* What the kernel reckons it can give without swapping. */
    long long available = field_of("/proc/meminfo", "MemAvailable");
    if (available >= 0 && available * 1024 < room) room = available * 1024;
    if (room == none) return -1;
    return room < 0 ? 0 : room;
}
