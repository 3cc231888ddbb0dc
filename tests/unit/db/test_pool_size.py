"""Each process keeps as many database connections open as it has
threads that may hold one at once (tether.conf.DB_POOL_SIZE): a thread
beyond the pool would open a connection for its transaction and close it
after (with PostgreSQL, a new server process each time)."""

import pathlib
import re

from tether import conf as t_conf

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _conf():
    # The defaults (read without parsing a command line or a file).
    return t_conf.CONF


def _unit_threads():
    """--threads of each gunicorn unit in etc/systemd."""
    found = {}
    for unit in sorted((ROOT / 'etc/systemd').glob('*.service')):
        match = re.search(r'--threads\s+(\d+)', unit.read_text())
        if match:
            found[unit.name] = int(match.group(1))
    return found


def test_both_databases_pool_as_many_connections():
    conf = _conf()
    assert conf.database.max_pool_size == t_conf.DB_POOL_SIZE
    assert conf.compute_database.max_pool_size == t_conf.DB_POOL_SIZE


def test_the_pool_is_not_smaller_than_an_api_process_threads():
    conf = _conf()
    threads = dict(_unit_threads(),
                   osapi_volume_threads=conf.osapi_volume_threads,
                   osapi_compute_threads=conf.osapi_compute_threads)
    assert len(threads) == 4    # the two units, the two built-in servers
    smaller = {k: v for k, v in threads.items() if v > t_conf.DB_POOL_SIZE}
    assert not smaller, (
        'more threads than pooled database connections (%d): %s'
        % (t_conf.DB_POOL_SIZE, smaller))
