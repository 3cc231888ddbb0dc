"""SQLAlchemy models of the volume service database, one module per
area (their tables share one MetaData: ``Base.metadata``, which the
migrations and their checks read); every model is a name of this
package."""

from tether.db.volume.models.common import (  # noqa: F401
    Base,
    _KeyValueMixin)
from tether.db.volume.models.volumes import (  # noqa: F401
    Volume,
    VolumeMetadata,
    VolumeAdminMetadata,
    VolumeGlanceMetadata,
    VolumeAttachment,
    Snapshot,
    SnapshotMetadata,
    Transfer)
from tether.db.volume.models.types import (  # noqa: F401
    VolumeType,
    VolumeTypeProject,
    VolumeTypeExtraSpec,
    DefaultVolumeType,
    QualityOfServiceSpecs,
    QualityOfServiceSpecsItem)
from tether.db.volume.models.services import (  # noqa: F401
    Service,
    Quota,
    QuotaClass,
    QuotaUsage,
    Reservation,
    Message)
from tether.db.volume.models.backups import (  # noqa: F401
    Backup,
    BackupMetadata)
from tether.db.volume.models.groups import (  # noqa: F401
    GroupType,
    GroupTypeSpec,
    Group,
    GroupVolumeTypeMapping,
    GroupSnapshot)
