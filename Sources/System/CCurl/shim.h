// Typed wrappers over libcurl's variadic setopt/getinfo, which Swift cannot call directly.
#ifndef HYBRID_CCURL_SHIM_H
#define HYBRID_CCURL_SHIM_H
#include <curl/curl.h>

static inline CURLcode hy_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode hy_easy_setopt_offt(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode hy_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode hy_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode hy_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode hy_easy_setopt_write_cb(CURL *h, CURLoption o, size_t (*cb)(char *, size_t, size_t, void *)) { return curl_easy_setopt(h, o, cb); }
static inline CURLcode hy_easy_setopt_xferinfo_cb(CURL *h, int (*cb)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, cb); }
static inline CURLcode hy_easy_setopt_prereq_cb(CURL *h, int (*cb)(void *, char *, char *, int, int)) { return curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, cb); }
static inline CURLcode hy_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode hy_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLMcode hy_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLMcode hy_multi_setopt_pointer(CURLM *m, CURLMoption o, void *v) { return curl_multi_setopt(m, o, v); }
static inline CURLMcode hy_multi_setopt_socket_cb(CURLM *m, int (*cb)(CURL *, curl_socket_t, int, void *, void *)) { return curl_multi_setopt(m, CURLMOPT_SOCKETFUNCTION, cb); }
static inline CURLMcode hy_multi_setopt_timer_cb(CURLM *m, int (*cb)(CURLM *, long, void *)) { return curl_multi_setopt(m, CURLMOPT_TIMERFUNCTION, cb); }
static inline curl_socket_t hy_socket_timeout(void) { return CURL_SOCKET_TIMEOUT; }

/* Macros Swift does not import. */
static inline long hy_global_all(void) { return CURL_GLOBAL_ALL; }
/* The CURLMsg payload is a union; reading it in C keeps the Swift side free of union layout details. */
static inline CURLcode hy_msg_result(const CURLMsg *m) { return m->data.result; }

#include <fcntl.h>
#include <unistd.h>
/* A non-blocking, close-on-exec pipe: the loop polls the read end, other threads write a byte to wake it. */
static inline int hy_wake_pipe(int fds[2]) {
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
        fcntl(fds[i], F_SETFD, FD_CLOEXEC);
    }
    return 0;
}

#ifdef __linux__
#include <sys/epoll.h>
/* epoll_event is a packed struct over a union, which Swift imports awkwardly: these take and return plain values.
   `hy_epoll_set` adds `fd` with `events`, or changes it when already added; `events` 0 removes it. */
static inline int hy_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
static inline int hy_epoll_set(int epfd, int fd, unsigned events, int added) {
    struct epoll_event ev = { .events = events, .data = { .fd = fd } };
    if (events == 0) return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &ev);
    int rc = epoll_ctl(epfd, added ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &ev);
    /* curl may close a socket without a REMOVE and get its number back for a new one: retry the other way. */
    if (rc != 0) rc = epoll_ctl(epfd, added ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &ev);
    return rc;
}
/* Waits like epoll_wait; fills `fds` and `events` (each `max` long) with the ready descriptors. */
static inline int hy_epoll_wait(int epfd, int *fds, unsigned *events, int max, int timeout) {
    struct epoll_event ready[64];
    if (max > 64) max = 64;
    int n = epoll_wait(epfd, ready, max, timeout);
    for (int i = 0; i < n; i++) { fds[i] = ready[i].data.fd; events[i] = ready[i].events; }
    return n;
}
static inline unsigned hy_epollin(void) { return EPOLLIN; }
static inline unsigned hy_epollout(void) { return EPOLLOUT; }
static inline unsigned hy_epollerr(void) { return EPOLLERR; }
static inline unsigned hy_epollhup(void) { return EPOLLHUP; }
#include <sys/prctl.h>
/* Names the calling thread for the kernel (`top -H`, perf, /proc/thread-self/comm); Foundation's Thread.name does
   not, on Linux. */
static inline void hy_name_current_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }
#else
static inline void hy_name_current_thread(const char *name) { (void)name; }
#endif

#endif
