"""The ends of a server's life that count its quota: its row inserted
(instances, cores and ram counted for its project and its user within
their limits) and marked deleted (given back), each in one transaction
with the change of the row."""

from tether.compute import quota
from tether.db.compute import instance as db_instances
from tether.db.compute import quota as db_quota
from tether.db import session


@db_quota.retry_on_duplicate
@session.COMPUTE.writer
def create_counted(context, values, bdms, candidates, action, group=None):
    """Count the server's flavor against the quota and insert it on a
    host with room, in its server ``group`` if one is given
    (tether.db.compute.instance.create_on_host): one transaction.
    TooManyInstances (403) leaves nothing made."""
    quota.consume_instances(
        context, values['project_id'], values['user_id'],
        quota.instance_deltas(values['vcpus'], values['memory_mb']))
    return db_instances.create_on_host(context, values, bdms, candidates,
                                       action, group=group)


@session.COMPUTE.writer
def soft_delete_counted(context, instance_uuid):
    """Mark the server deleted and give its quota back, at once; a
    server already deleted gives nothing back again."""
    instance = db_instances.soft_delete(context, instance_uuid)
    if instance is not None:
        quota.release_instances(
            context, instance.project_id, instance.user_id,
            quota.instance_deltas(instance.vcpus, instance.memory_mb))
    return instance
