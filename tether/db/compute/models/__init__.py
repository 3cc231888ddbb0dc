"""SQLAlchemy models of the compute service database, one module per
area (their tables share one MetaData: ``Base.metadata``, which the
migrations and their checks read); every model is a name of this
package."""

from tether.db.compute.models.common import Base  # noqa: F401
from tether.db.compute.models.flavors import (  # noqa: F401
    Flavor,
    FlavorProject,
    KeyPair)
from tether.db.compute.models.quotas import (  # noqa: F401
    Quota,
    QuotaClass,
    QuotaUsage)
from tether.db.compute.models.hosts import (  # noqa: F401
    ComputeService,
    Aggregate,
    AggregateHost,
    AggregateMetadata,
    ServerGroup,
    ServerGroupMember)
from tether.db.compute.models.instances import (  # noqa: F401
    Instance,
    BlockDeviceMapping,
    ShareMapping,
    InstanceAction,
    InstanceActionEvent)
