#define _GNU_SOURCE
#include "CEntityIdx.h"

#include <signal.h>
#include <string.h>

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
