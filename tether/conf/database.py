"""Configuration (oslo.config): the [compute_database] group (oslo.db's
options, for the compute service's database)."""

from oslo_config import cfg

# The compute service's database, apart from the volume service's
# [database], as Nova keeps [api_database] apart from [database].
compute_database_group = cfg.OptGroup(
    'compute_database', title='The compute service database')
