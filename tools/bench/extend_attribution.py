"""Where the time of an online extend goes (online_extend.py), from the
timestamps of tether-aio's log: the markers of each step and the table of
their medians."""

import aio_log

# (marker, what ends there, the test of a log line; v = the volume id)
MARKERS = (
    # The manager no longer starts a qemu-img resize that can only fail
    # on the guest's lock: it tests the lock itself (issue #16).
    ('held', 'API: claim, reserve, RPC cast; manager finds the image '
             'held',
     lambda line, v: 'Not running qemu-img resize' in line and v in line),
    ('handed', 'store extend_new_size (admin metadata)',
     lambda line, v: 'Volume %s is held by the guest' % v in line),
    ('event_done', 'event POST (compute API: action, RPC cast)',
     lambda line, v: '"POST ' in line and 'os-server-external-events'
     in line),
    # The host logs that the volume waits for it once it has the size:
    # sent with the event (RPC 1.11), or after its GET of the volume.
    ('get_done', 'compute: takes the cast, has the size (or GETs it)',
     lambda line, v: 'Volume %s waits for this host to grow it' % v
     in line),
    ('resized', 'compute: blockResize (+ look-up, XML)',
     lambda line, v: 'Resized ' in line and v in line),
    ('completed', 'completion POST: volume API settles',
     lambda line, v: 'Volume %s extended from' % v in line),
)
CLIENT_STEP = 'client: sees in-use and k (polling)'
OFF_PATH = (
    ('completion_done', 'compute: completion answered (202)',
     lambda line, v: '"POST ' in line and '/volumes/%s/action' % v in line),
    ('compute_done', 'compute: done (BDM updated)',
     lambda line, v: 'Extended volume %s of server' % v in line),
)


def attribute(log_path, marks):
    """For each measured extend, the time (s, from the client's POST) of
    each marker, found in order between its POST and the next one's."""
    lines = aio_log.read_log(log_path)
    found = []
    for i, mark in enumerate(marks):
        # The log has milliseconds; the client's clock, microseconds.
        start = mark['wall_start'] - 0.002
        end = (marks[i + 1]['wall_start'] if i + 1 < len(marks)
               else float('inf'))
        window = [(t, line) for t, line in lines if start <= t < end]
        times = {'client_202': mark['wall_202'] - mark['wall_start'],
                 'client_end': mark['wall_end'] - mark['wall_start']}
        pos = 0
        for name, _what, test in MARKERS:
            for j in range(pos, len(window)):
                if test(window[j][1], mark['volume']):
                    times[name] = window[j][0] - mark['wall_start']
                    pos = j + 1
                    break
        for name, _what, test in OFF_PATH:
            for t, line in window:
                if test(line, mark['volume']):
                    times[name] = t - mark['wall_start']
                    break
        found.append(times)
    return found


def steps(markers, client_step, found):
    """(what, its steps, its offsets) for each of ``markers`` ((name,
    what, ...)) and then the client's end: a step is a marker's time
    less the previous marker's, in each of ``found`` (a dict of name ->
    seconds from the POST per operation) that has both."""
    names = [m[0] for m in markers] + ['client_end']
    whats = [m[1] for m in markers] + [client_step]
    prev = None
    for name, what in zip(names, whats):
        yield (what,
               [f[name] - (f[prev] if prev else 0.0) for f in found
                if name in f and (prev is None or prev in f)],
               [f[name] for f in found if name in f])
        prev = name


def attribution_table(found):
    """Rows (what, p50 of its step, p50 of its offset, samples) of each
    extend's steps (see :func:`steps`)."""
    rows = [(what, median_ms(step), median_ms(offsets), len(offsets))
            for what, step, offsets in steps(MARKERS, CLIENT_STEP, found)]
    for name, what, _test in OFF_PATH:
        offsets = [f[name] for f in found if name in f]
        rows.append(('(after) ' + what, None, median_ms(offsets),
                     len(offsets)))
    return rows


def median_ms(values):
    if not values:
        return None
    values = sorted(values)
    mid = len(values) // 2
    value = values[mid] if len(values) % 2 else (values[mid - 1] +
                                                 values[mid]) / 2
    return value * 1000
