"""glibc's malloc arenas, capped in every tether process.

glibc gives a thread that finds the other arenas busy an arena of its
own, up to eight per CPU: a process with dozens of threads (an API
worker's request threads, the RPC servers, the periodic tasks) keeps
memory freed in one arena away from the others. With two, as
``MALLOC_ARENA_MAX=2`` would give, an aio API worker ended the volume
API benchmark's workloads with 3.5 to 4.5 MiB less RSS, its request
rates within the runs' noise (tools/bench/README.rst, "The API workers'
memory").
"""

import ctypes
import os

# mallopt's parameter for the most arenas (glibc's malloc.h).
M_ARENA_MAX = -8
ARENAS = 2
ENVIRONMENT = 'MALLOC_ARENA_MAX'


def limit(arenas=ARENAS):
    """Cap the arenas of this process at ``arenas`` from now on, unless
    the environment chose (``MALLOC_ARENA_MAX``, which glibc read at the
    start) or the C library has no ``mallopt``. Call it before threads
    start. True if the cap was set."""
    if ENVIRONMENT in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return mallopt(M_ARENA_MAX, arenas) == 1
