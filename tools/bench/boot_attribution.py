"""Where the time of a boot goes (boot.py), from the timestamps of
tether-aio's log, and boot.py's figures.

The compute API's and the manager's calls to the volume API are logged
by urllib3 at DEBUG when their answer comes, the driver's define at DEBUG
and its spawn's end at INFO; all of one boot carry the request id of its
POST /servers (the RPC cast carries the context), which the driver's
"Defined instance-<uuid>" line gives."""

import re

import aio_log
import compute_ops
from extend_attribution import median_ms, steps

DEBUG_LOGGERS = ('urllib3.connectionpool',
                 'tether.drivers.virt.libvirt.driver')
REQUEST_ID = re.compile(r'\[(?:\S+ )?(req-[0-9a-f-]+) ')

# (marker, what ends there, the test of a log line of the boot's request;
# b = the boot: its server, volume and attachment ids)
MARKERS = (
    ('api_volume', 'API: flavor, volume GET (volume API)',
     lambda line, b: '"GET /v3/volumes/%s ' % b['volume'] in line),
    ('api_attachment', 'API: attachment create (volume API)',
     lambda line, b: '"POST /v3/attachments HTTP' in line),
    ('updated', 'claim, cast; manager: BDM state, attachment update',
     lambda line, b: '"PUT /v3/attachments/%s ' % b['attachment'] in line),
    ('defined', 'driver: connect the volume, XML, define',
     lambda line, b: 'Defined instance-%s ' % b['server'] in line),
    ('spawned', 'driver: start (QEMU runs)',
     lambda line, b: 'Spawned instance-%s ' % b['server'] in line),
    ('completed', 'manager: attachment complete (volume API)',
     lambda line, b: '"POST /v3/attachments/%s/action' % b['attachment']
     in line),
)
CLIENT_STEP = 'manager: ACTIVE; client sees it (polling)'


def _request_ids(lines, boots):
    ids = {}
    for _t, line in lines:
        if 'Defined instance-' not in line:
            continue
        for boot in boots:
            if 'Defined instance-%s ' % boot['server'] in line:
                match = REQUEST_ID.search(line)
                if match:
                    ids[boot['server']] = match.group(1)
    return ids


def _offsets(lines, boot, request_id):
    """The time (s, from the client's POST) of each marker of ``boot``,
    in order, among the lines of its request."""
    # The log has milliseconds; the client's clock, microseconds.
    start = boot['wall_start'] - 0.002
    times = {'client_202': boot['post'], 'client_end': boot['active']}
    mine = [(t, line) for t, line in lines
            if t >= start and request_id in line]
    pos = 0
    for name, _what, test in MARKERS:
        for j in range(pos, len(mine)):
            if test(mine[j][1], boot):
                times[name] = mine[j][0] - boot['wall_start']
                pos = j + 1
                break
    return times


def attribute(log_path, results):
    """{'single': [offsets of each boot], 'concurrent': [[offsets] of
    each round]}."""
    lines = aio_log.read_log(log_path)
    every = results['single'] + [b for r in results['concurrent']
                                 for b in r['boots']]
    ids = _request_ids(lines, every)

    def of(boot):
        rid = ids.get(boot['server'])
        return _offsets(lines, boot, rid) if rid else {}
    return {'single': [of(b) for b in results['single']],
            'concurrent': [[of(b) for b in r['boots']]
                           for r in results['concurrent']]}


def table(found):
    """Rows (what, p50 of its step, p50 of its end from the POST, max of
    that end, samples)."""
    return [(what, median_ms(step), median_ms(ends),
             max(ends) * 1000 if ends else None, len(ends))
            for what, step, ends in steps(MARKERS, CLIENT_STEP, found)]


def starts_at_once(found):
    """The most guests between their define and their spawn's end at one
    time (libvirt starting them side by side)."""
    edges = sorted([(f['defined'], 1) for f in found if 'spawned' in f] +
                   [(f['spawned'], -1) for f in found if 'defined' in f])
    most = now = 0
    for _t, step in edges:
        now += step
        most = max(most, now)
    return most


# Output -------------------------------------------------------------------

def _fmt(value):
    return '%8.1f' % value if value is not None else '%8s' % '-'


def _print_table(title, found):
    print()
    print(title)
    print('%-52s %8s %8s %8s %3s' % ('step (ends when ...)', 'step p50',
                                     'at p50', 'at max', 'n'))
    for what, step, at, most, n in table(found):
        print('%-52s %s %s %s %3d' % (what, _fmt(step), _fmt(at),
                                      _fmt(most), n))


def print_figures(results, found, args, loads):
    """Print the figures; return them (ms) for the JSON."""
    active = sorted(b['active'] for b in results['single'])
    figs = compute_ops.figures({
        'boot': active, 'boot_202': [b['post'] for b in results['single']],
        'bare': results['bare']})
    for key, values in (('boot', active), ('bare', results['bare'])):
        if values:
            figs[key]['min_ms'] = min(values) * 1000
    print()
    print('single boot from a 1 GiB volume (OS-less), %d rounds, polling '
          'every %d ms (ms)' % (args.rounds, args.interval * 1000))
    print('%-34s %8s %8s %8s' % ('', 'p50', 'min', 'max'))
    t, b = figs['boot'], figs['bare']
    print('%-34s %8.1f %8.1f %8.1f' % ('tether: POST to ACTIVE', t['p50_ms'],
                                       t['min_ms'], t['max_ms']))
    print('%-34s %8.1f %8s %8.1f' % ('tether: POST to 202',
                                     figs['boot_202']['p50_ms'], '',
                                     figs['boot_202']['max_ms']))
    print('%-34s %8.1f %8.1f %8.1f' % ('bare: define+start (same XML)',
                                       b['p50_ms'], b['min_ms'],
                                       b['max_ms']))
    print('overhead %.1f ms, ratio %.2fx (aim 1.5x)' % (
        t['p50_ms'] - b['p50_ms'], t['p50_ms'] / b['p50_ms']))
    figs['concurrent'] = []
    for i, r in enumerate(results['concurrent']):
        each = sorted(x['active'] for x in r['boots'])
        row = {'wall_ms': r['wall'] * 1000,
               'bare_wall_ms': r['bare_wall'] * 1000,
               'p50_each_ms': median_ms(each),
               'bare_p50_each_ms': median_ms(r['bare_each'])}
        figs['concurrent'].append(row)
        print('%d at once (round %d): all ACTIVE %.0f ms (each: p50 %.0f, '
              'min %.0f, max %.0f) vs bare %d define+start in parallel '
              '%.0f ms (p50 %.0f): ratio %.2fx' % (
                  len(each), i + 1, row['wall_ms'], row['p50_each_ms'],
                  each[0] * 1000, each[-1] * 1000, len(r['bare_each']),
                  row['bare_wall_ms'], row['bare_p50_each_ms'],
                  r['wall'] / r['bare_wall']))
    print('load average (1, 5, 15 min): start %s, end %s'
          % (loads['start'], loads['end']))
    if found:
        _print_table('where the time of a single boot goes (tether-aio\'s '
                     'log, ms resolution; from the POST)', found['single'])
        for i, round_found in enumerate(found['concurrent']):
            _print_table('where the time of the %d concurrent boots goes '
                         '(round %d); guests starting at once, at most: %d'
                         % (len(round_found), i + 1,
                            starts_at_once(round_found)), round_found)
    return figs
