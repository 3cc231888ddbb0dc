"""Service records: registration, heartbeats, capacity reports."""

from oslo_db import exception as db_exc
from oslo_serialization import jsonutils
import sqlalchemy as sa

from tether.db import base
from tether.db import session
from tether.db.volume import models
from tether.objects.volume import service as service_obj
from tether.volume import exception

db = session.VOLUME


@db.writer
def register(context, host, binary, topic, availability_zone, rpc_version,
             object_version):
    """Create or refresh the record of a starting service; returns its id."""
    now = base.now()
    values = dict(topic=topic, availability_zone=availability_zone,
                  rpc_current_version=rpc_version,
                  object_current_version=object_version, heartbeat_at=now,
                  updated_at=now)
    result = context.session.execute(
        sa.update(models.Service).where(models.Service.host == host,
                                        models.Service.binary == binary)
        .values(**values).execution_options(synchronize_session=False))
    if result.rowcount == 0:
        try:
            with context.session.begin_nested():
                context.session.add(models.Service(
                    host=host, binary=binary, disabled=False, report_count=0,
                    **values))
        except db_exc.DBDuplicateEntry:
            pass
    return context.session.scalars(
        sa.select(models.Service.id).where(models.Service.host == host,
                                           models.Service.binary == binary)
    ).one()


@db.writer
def heartbeat(context, service_id, capabilities=None):
    values = {'heartbeat_at': base.now(),
              'report_count': models.Service.report_count + 1}
    if capabilities is not None:
        values['capabilities'] = jsonutils.dumps(capabilities)
    context.session.execute(
        sa.update(models.Service).where(models.Service.id == service_id)
        .values(**values).execution_options(synchronize_session=False))


@db.reader
def get_all(context, binary=None, host=None):
    q = sa.select(models.Service).order_by(models.Service.id)
    if binary:
        q = q.where(models.Service.binary == binary)
    if host:
        q = q.where(models.Service.host == host)
    return [service_obj.Service.from_db(row)
            for row in context.session.scalars(q)]


@db.writer
def destroy(context, service_id):
    """Delete a service record; False if there was none."""
    result = context.session.execute(
        sa.delete(models.Service).where(models.Service.id == service_id)
        .execution_options(synchronize_session=False))
    return result.rowcount > 0


def _by_host_and_binary(host, binary):
    return [models.Service.host == host, models.Service.binary == binary]


@db.writer
def set_disabled(context, host, binary, disabled, reason=None):
    """Enable or disable the service ``binary`` of ``host`` (one UPDATE);
    the service as it is then, or ServiceNotFound."""
    count = context.session.execute(
        sa.update(models.Service).where(*_by_host_and_binary(host, binary))
        .values(disabled=disabled, disabled_reason=reason,
                updated_at=base.now())
        .execution_options(synchronize_session=False)).rowcount
    if count != 1:
        raise exception.ServiceNotFound(host=host, binary=binary)
    return service_obj.Service.from_db(context.session.scalars(
        sa.select(models.Service).where(*_by_host_and_binary(host, binary))
    ).one())


@db.writer
def set_frozen(context, host, binary, frozen):
    """Freeze (or thaw) a service that is not (or is) frozen: one
    conditional UPDATE; ServiceNotFound if there is no such service,
    ServiceFrozenState if it already is."""
    count = context.session.execute(
        sa.update(models.Service).where(
            *_by_host_and_binary(host, binary),
            models.Service.frozen == (not frozen))
        .values(frozen=frozen, updated_at=base.now())
        .execution_options(synchronize_session=False)).rowcount
    if count == 1:
        return
    found = context.session.scalars(
        sa.select(models.Service.id).where(
            *_by_host_and_binary(host, binary))).first()
    if found is None:
        raise exception.ServiceNotFound(host=host, binary=binary)
    raise exception.ServiceFrozenState(
        host=host, state='frozen' if frozen else 'not frozen')


@db.reader
def is_frozen(context, backend_host):
    """Whether the service of a volume's backend (``host@backend``, the
    volume's host without its pool) is frozen."""
    return bool(context.session.scalar(
        sa.select(models.Service.frozen).where(
            models.Service.host == backend_host.partition('#')[0])))
