"""A server's console output (the action os-getConsoleOutput), in the API
process: the checks, then a call to the server's host."""

import re

import oslo_messaging as messaging

from tether.compute.api import servers
from tether.compute import exception
from tether.compute import rpcapi as compute_rpcapi
from tether.compute import version as compute_version
from tether.objects import fields

TaskState = fields.TaskState

# Control characters a console output loses (all but tab and newline), as
# Nova strips them: carriage returns, escape sequences, NULs.
_CONTROL = re.compile('[\x00-\x08\x0b-\x1f]')
_CONSOLE_OUTPUT = 'get_console_output'


def get(context, instance, lines=None):
    """The last ``lines`` lines (None: all the host keeps, the last 100
    KiB) of what the server's guest wrote to its console: in its current
    run, or in its last one for a server that is not running (stopped,
    suspended: the host keeps the log), as Nova serves it; a rescued
    guest's console is the rescue image's.

    A server without a host or being deleted is refused (Nova's 409), and
    so is a host whose tether-compute is older than console output.
    """
    servers.check_host(instance, _CONSOLE_OUTPUT)
    if instance.task_state == TaskState.DELETING:
        raise exception.InstanceInvalidState(
            action=_CONSOLE_OUTPUT, instance_id=instance.uuid,
            attr='task_state', state=instance.task_state)
    servers.check_host_version(
        context, instance, compute_version.CONSOLE_OUTPUT_SERVICE_VERSION,
        'console output')
    try:
        output = compute_rpcapi.get().get_console_output(context, instance,
                                                         lines)
    except messaging.MessagingTimeout:
        raise exception.ComputeHostUnavailable(host=instance.host)
    return _CONTROL.sub('', output)
