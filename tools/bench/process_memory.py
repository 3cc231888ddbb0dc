"""The memory of a process as the benchmarks report it: its peak RSS,
RSS and PSS, read from /proc (volume_api.py)."""


def memory_of(pid):
    """(VmHWM, VmRSS, Pss) of a process in KiB, or None if it cannot be
    read. Pss (from smaps_rollup) shares each page among the processes
    that map it, which RSS counts in full in each."""
    try:
        with open('/proc/%d/status' % pid) as f:
            text = f.read()
        with open('/proc/%d/smaps_rollup' % pid) as f:
            text += f.read()
    except OSError:
        return None
    values = {}
    for line in text.splitlines():
        key, _, rest = line.partition(':')
        if key in ('VmHWM', 'VmRSS', 'Pss') and key not in values:
            values[key] = int(rest.split()[0])
    return values.get('VmHWM'), values.get('VmRSS'), values.get('Pss')


def print_memory(memory, when):
    for name, values in memory.items():
        if values and values[0]:
            print('%s %s: peak RSS (VmHWM) %.1f MiB, RSS %.1f MiB, '
                  'PSS %.1f MiB' % (name, when, values[0] / 1024.0,
                                    (values[1] or 0) / 1024.0,
                                    (values[2] or 0) / 1024.0))
