"""The seccomp filter every sandboxed process runs under, built with libseccomp (PyPI's pyseccomp over the system's
libseccomp2): the system calls that reach the kernel's shared state or other processes — keyrings, tracing, BPF,
perf, userfaultfd, mounts and namespaces, modules, clocks, io_uring — fail with EPERM, and so do those that carry state
between sandboxes through a file they all read (locks, page-cache probes and evictions, access notifications) and
those aimed at pid 1, the sandbox's supervisor (signals, pidfds, prlimit); clone3 fails with ENOSYS so that the C
library falls back to clone, whose namespace flags fail with EPERM."""
from __future__ import annotations

import errno
import os
from functools import lru_cache

REFUSED = ("keyctl", "add_key", "request_key", "ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
           "pidfd_getfd", "bpf", "perf_event_open", "userfaultfd", "mount", "umount2", "pivot_root", "chroot",
           "unshare", "setns", "fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr",
           "open_by_handle_at", "name_to_handle_at", "init_module", "finit_module", "delete_module", "kexec_load",
           "kexec_file_load", "reboot", "swapon", "swapoff", "acct", "quotactl", "syslog", "vhangup", "iopl",
           "ioperm", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "lookup_dcookie",
           "io_uring_setup", "io_uring_enter", "io_uring_register", "personality",
           "flock", "fadvise64", "readahead", "mincore", "cachestat", "inotify_init", "inotify_init1",
           "inotify_add_watch", "fanotify_init", "fanotify_mark")
FCNTL_SHARED = (5, 6, 7, 12, 13, 14, 36, 37, 38, 1024, 1026)  # F_[OFD_]{GET,SET}LK[W][64], F_SETLEASE, F_NOTIFY
MADVISE_EVICTING = (20, 21)  # MADV_COLD, MADV_PAGEOUT: push a file's pages out of the host's page cache
RWF_NOWAIT = 0x8  # preadv2 that reads only what the page cache holds: a probe of it
AT_PID_1 = ("kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_open", "prlimit64")
NAMESPACE_FLAGS = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000, 0x00000080)
INSTALL_HINT = "install libseccomp (`pip install pyseccomp`, over Debian's libseccomp2)"


class SeccompUnavailable(RuntimeError):
    """libseccomp cannot be loaded here."""


@lru_cache(maxsize=1)
def filter_program() -> bytes:
    """The compiled BPF program (bwrap's --seccomp reads it from a descriptor)."""
    try:
        import pyseccomp as seccomp
    except (ImportError, OSError) as exc:
        raise SeccompUnavailable(f"libseccomp could not be loaded ({exc}): {INSTALL_HINT}") from None
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in REFUSED:
        _add(rules, seccomp.ERRNO(errno.EPERM), name)
    refused = seccomp.ERRNO(errno.EPERM)
    for name in ("fcntl", "fcntl64"):
        for command in FCNTL_SHARED:
            _add(rules, refused, name, seccomp.Arg(1, seccomp.EQ, command))
    for advice in MADVISE_EVICTING:
        _add(rules, refused, "madvise", seccomp.Arg(2, seccomp.EQ, advice))
    _add(rules, refused, "preadv2", seccomp.Arg(5, seccomp.MASKED_EQ, RWF_NOWAIT, RWF_NOWAIT))
    for name in AT_PID_1:
        _add(rules, refused, name, seccomp.Arg(0, seccomp.EQ, 1))
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    for flag in NAMESPACE_FLAGS:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    descriptor = os.memfd_create("evalpipe-seccomp", 0)
    with open(descriptor, "w+b") as handle:
        rules.export_bpf(handle)
        handle.seek(0)
        return handle.read()


def _add(rules, action, name: str, *arguments) -> None:
    """One rule, left out where this architecture has no such call."""
    try:
        rules.add_rule(action, name, *arguments)
    except (RuntimeError, ValueError, OSError):
        pass


def filter_descriptor() -> int:
    """A descriptor reading the filter from its start, for one bwrap."""
    program = filter_program()
    descriptor = os.memfd_create("evalpipe-seccomp", 0)
    os.write(descriptor, program)
    os.lseek(descriptor, 0, os.SEEK_SET)
    return descriptor
