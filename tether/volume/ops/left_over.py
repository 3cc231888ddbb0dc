"""Taking up, one row at a time, what a volume backend left half done:
at its start (tether.volume.manager init_host) and in its periodic
re-drives. A row whose take-up raises is logged and left as it is (the
transaction it was in rolled back), and the others are still taken up:
one broken volume never keeps a backend from starting, nor the other
volumes from being served."""

import collections

from oslo_log import log as logging

LOG = logging.getLogger(__name__)

# How many rows a pass found, took up, and could not take up (found =
# taken_up + failed + those it left to another flow).
Tally = collections.namedtuple('Tally', 'found taken_up failed')


def _status(row):
    status = getattr(row, 'status', None)
    return status if status is not None else getattr(row, 'attach_status',
                                                     None)


def each(what, rows, take_up, stopping=None):
    """``take_up(row)`` for each of ``rows`` (``what`` names them in the
    log: 'volume', 'snapshot' ...), until ``stopping()`` says the service
    stops. ``take_up`` returns False for a row it leaves to another flow
    (not counted as taken up). Returns a Tally."""
    rows = list(rows)
    taken_up = failed = 0
    for row in rows:
        if stopping is not None and stopping():
            LOG.info('The service stops: the %ss left mid-operation that '
                     'are not taken up yet wait for its next start', what)
            break
        try:
            if take_up(row) is not False:
                taken_up += 1
        except Exception:  # noqa: BLE001 - one row never stops the others
            failed += 1
            LOG.exception('Could not take up %s %s, left %s: it stays %s '
                          '(see "Reconciliation" in the docs)', what,
                          row.id, _status(row), _status(row))
    return Tally(len(rows), taken_up, failed)


def log(host, what, tally):
    """One line for a pass that found anything."""
    if tally.failed:
        LOG.error('%s: of %d %ss left mid-operation, %d were taken up and '
                  '%d could not be (logged above; they stay as they were)',
                  host, tally.found, what, tally.taken_up, tally.failed)
    elif tally.taken_up:
        LOG.info('%s: reconciled %d %ss left mid-operation', host,
                 tally.taken_up, what)
