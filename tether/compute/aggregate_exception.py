"""Exceptions of the compute service about host aggregates
(``/os-aggregates``)."""

from tether import exception


class AggregateNotFound(exception.NotFound):
    msg_fmt = 'Aggregate %(aggregate_id)s could not be found.'
    error_code = 'compute.aggregate.not_found'


class AggregateNameExists(exception.Conflict):
    msg_fmt = 'Aggregate %(aggregate_name)s already exists.'
    error_code = 'compute.aggregate.name_exists'


class AggregateHostExists(exception.Conflict):
    msg_fmt = 'Aggregate %(aggregate_id)s already has host %(host)s.'
    error_code = 'compute.aggregate.host_exists'


class AggregateHostNotFound(exception.NotFound):
    msg_fmt = 'Cannot remove host %(host)s in aggregate %(aggregate_id)s'
    error_code = 'compute.aggregate.host_not_found'


class ComputeHostNotFound(exception.NotFound):
    msg_fmt = 'Compute host %(host)s could not be found.'
    error_code = 'compute.aggregate.compute_host_not_found'


class InvalidAggregateAction(exception.Invalid):
    """An update, a metadata change or a delete that Nova refuses with
    400 (an empty zone name, a zone its hosts cannot take, hosts left)."""
    msg_fmt = 'Cannot %(action)s aggregate %(aggregate_id)s. Reason: ' \
              '%(reason)s.'
    error_code = 'compute.aggregate.invalid_action'


class AggregateHostConflict(exception.Conflict):
    """A host added or removed that would be in two zones, or whose
    servers would change zone (Nova's 409)."""
    msg_fmt = 'Cannot %(action)s aggregate %(aggregate_id)s. Reason: ' \
              '%(reason)s.'
    error_code = 'compute.aggregate.host_conflict'
