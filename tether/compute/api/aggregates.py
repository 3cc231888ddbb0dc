"""Host aggregates (``/os-aggregates``) in the API process. The zone
rules (tether.db.compute.aggregate) run in the transaction of each
change; a host's zone is read from its aggregates wherever compute
hosts are listed (tether.db.compute.service)."""

from oslo_config import cfg

from tether.db.compute import aggregate as db_aggregates
from tether.objects.compute import aggregate as aggregate_obj

CONF = cfg.CONF
ZONE = aggregate_obj.AVAILABILITY_ZONE


def get(context, aggregate_id):
    return db_aggregates.get(context, aggregate_id)


def get_all(context):
    return db_aggregates.get_all(context)


def create(context, name, zone=None):
    return db_aggregates.create(context, name, zone)


def update(context, aggregate_id, values):
    """``values``: a new ``name`` and/or ``availability_zone``."""
    return db_aggregates.update(
        context, aggregate_id, name=values.get('name'),
        zone_given=ZONE in values, zone=values.get(ZONE))


def set_metadata(context, aggregate_id, metadata):
    """Set each key of ``metadata`` (None: remove it)."""
    return db_aggregates.set_metadata(context, aggregate_id, metadata)


def delete(context, aggregate_id):
    db_aggregates.destroy(context, aggregate_id)


def add_host(context, aggregate_id, host):
    return db_aggregates.add_host(context, aggregate_id, host,
                                  CONF.default_availability_zone)


def remove_host(context, aggregate_id, host):
    return db_aggregates.remove_host(context, aggregate_id, host,
                                     CONF.default_availability_zone)
