"""Service records: registration, heartbeats, capacity reports."""

from oslo_db import exception as db_exc
from oslo_serialization import jsonutils
import sqlalchemy as sa

from tether.db import base
from tether.db import session
from tether.db.volume import models
from tether.objects.volume import service as service_obj

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
