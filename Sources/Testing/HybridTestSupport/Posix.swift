import Glibc

/// Small wrappers for POSIX calls whose GNU variants (`pipe2`, `accept4`) Swift's Glibc module does not expose.
enum Posix {
    /// A pipe with both ends close-on-exec, so child processes started by tests do not inherit them.
    static func pipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else { return nil }
        setCloseOnExec(fds[0])
        setCloseOnExec(fds[1])
        return (fds[0], fds[1])
    }

    static func setCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
    }
}
