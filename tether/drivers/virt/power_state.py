"""Power states of a guest as a hypervisor reports them (Nova's numbers)."""

import enum


class PowerState(enum.IntEnum):
    """The values of Nova's ``OS-EXT-STS:power_state``."""
    NOSTATE = 0
    RUNNING = 1
    PAUSED = 3
    SHUTDOWN = 4
    CRASHED = 6
    SUSPENDED = 7
