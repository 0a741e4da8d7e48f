// hybrid-measure REPORT PROGRAM [ARGUMENT ...]
//
// Runs PROGRAM as its own child, waits for it, and writes "status peak_rss_kb user_us system_us" (or
// "spawn-error errno") to REPORT. MeasuredProcess (HybridTestSupport) runs programs through it because
// Linux folds the exec'ing process's old address space into the child's peak (`exec_mmap` ->
// `setmax_mm_hiwater_rss`): a program spawned straight from a benchmark or a test process reports
// max(that process's own peak, the program's), so a 40 MB CLI run from a 300 MB test process "peaks" at
// 300 MB. Forked from this small process instead, the program's peak is its own, as with GNU time.
// Written in C so that the process the program is forked from stays about 1 MB.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

static int write_report(const char *path, const char *text) {
    FILE *file = fopen(path, "w");
    if (file == NULL) {
        fprintf(stderr, "hybrid-measure: %s: %s\n", path, strerror(errno));
        return 70;
    }
    fputs(text, file);
    return fclose(file) == 0 ? 0 : 70;
}

static long microseconds(struct timeval time) { return (long)time.tv_sec * 1000000L + (long)time.tv_usec; }

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: hybrid-measure REPORT PROGRAM [ARGUMENT ...]\n");
        return 64;
    }
    // The exec error travels back through a close-on-exec pipe: nothing read means the program started.
    int errors[2];
    if (pipe2(errors, O_CLOEXEC) != 0) {
        fprintf(stderr, "hybrid-measure: pipe: %s\n", strerror(errno));
        return 71;
    }
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "hybrid-measure: fork: %s\n", strerror(errno));
        return 71;
    }
    if (child == 0) {
#ifdef __linux__
        // MeasuredProcess's timeout SIGKILLs this process; the program must not outlive it.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(137);
#endif
        close(errors[0]);
        execv(argv[2], argv + 2);
        int error = errno;
        ssize_t written = write(errors[1], &error, sizeof error);
        (void)written;
        _exit(127);
    }
    close(errors[1]);
    int error = 0;
    ssize_t got;
    do { got = read(errors[0], &error, sizeof error); } while (got < 0 && errno == EINTR);
    close(errors[0]);

    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    while (wait4(child, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "hybrid-measure: wait4: %s\n", strerror(errno));
            return 71;
        }
    }
    char text[160];
    if (got == (ssize_t)sizeof error) {
        snprintf(text, sizeof text, "spawn-error %d\n", error);
    } else {
        int code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
        snprintf(text, sizeof text, "%d %ld %ld %ld\n", code, usage.ru_maxrss,
                 microseconds(usage.ru_utime), microseconds(usage.ru_stime));
    }
    return write_report(argv[1], text);
}
