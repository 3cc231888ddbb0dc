"""SQLite's writers take turns across threads and processes
(tether.db.session.WriterTurn): tether-aio's API workers and its main
process write to the same database files."""

import queue
import subprocess
import sys
import threading
import time

from tether.db import session

HOLD_IN_ANOTHER_PROCESS = '''
import sys, time
from tether.db import session
turn = session.WriterTurn(sys.argv[1])
with turn:
    print('got', flush=True)
    time.sleep(float(sys.argv[2]))
print('let go', flush=True)
'''


def _other_process(database, hold=0.0):
    proc = subprocess.Popen(
        [sys.executable, '-c', HOLD_IN_ANOTHER_PROCESS, database, str(hold)],
        stdout=subprocess.PIPE, text=True)
    proc.lines = queue.Queue()

    def read():
        for line in proc.stdout:
            proc.lines.put(line.strip())
    threading.Thread(target=read, daemon=True).start()
    return proc


def _line_within(proc, seconds):
    try:
        return proc.lines.get(timeout=seconds)
    except queue.Empty:
        return None


def test_another_process_waits_for_the_turn(tmp_path):
    database = str(tmp_path / 'tether.sqlite')
    turn = session.WriterTurn(database)
    with turn:
        with turn:  # nested transactions join the outer turn
            proc = _other_process(database)
            assert _line_within(proc, 1.0) is None
        # Still held: the inner exit did not let go.
        assert _line_within(proc, 0.5) is None
    assert _line_within(proc, 10) == 'got'
    assert proc.wait(10) == 0
    turn.close()


def test_this_process_waits_for_another(tmp_path):
    database = str(tmp_path / 'tether.sqlite')
    proc = _other_process(database, hold=0.5)
    assert _line_within(proc, 10) == 'got'
    turn = session.WriterTurn(database)
    with turn:
        # The other process let go before this one got its turn.
        assert _line_within(proc, 0.1) == 'let go'
    proc.wait(10)
    turn.close()


def test_threads_of_one_process_take_turns(tmp_path):
    turn = session.WriterTurn(str(tmp_path / 'tether.sqlite'))
    inside = []
    overlaps = []

    def write():
        for _ in range(50):
            with turn:
                inside.append(1)
                if len(inside) > 1:
                    overlaps.append(len(inside))
                time.sleep(0.0005)
                inside.pop()
    threads = [threading.Thread(target=write) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == []
    turn.close()


def test_a_database_in_memory_has_no_lock_file(tmp_path):
    turn = session.WriterTurn(':memory:')
    with turn:
        pass
    assert list(tmp_path.iterdir()) == []
