"""Instance action events: what the compute manager records as it works."""

import contextlib
import traceback

from oslo_log import log as logging

from tether.db.compute import instance_action as db_actions

LOG = logging.getLogger(__name__)


@contextlib.contextmanager
def recorded(context, instance_uuid, event, host):
    """Record ``event`` (``compute_<method>``) of the action of the request
    that caused it: Success when the block ends, Error when it raises."""
    event_id = None
    try:
        event_id = db_actions.event_start(context, instance_uuid,
                                          context.request_id, event, host)
    except Exception:  # noqa: BLE001 - records never stop the work
        LOG.exception('Could not record the start of %s of %s', event,
                      instance_uuid)
    try:
        yield
    except BaseException as exc:
        _finish(context, event_id, 'Error', traceback.format_exc(),
                str(exc))
        raise
    else:
        _finish(context, event_id, 'Success')


def _finish(context, event_id, result, tb=None, details=None):
    if event_id is None:
        return
    try:
        db_actions.event_finish(context, event_id, result, tb, details)
    except Exception:  # noqa: BLE001
        LOG.exception('Could not record the end of event %s', event_id)
