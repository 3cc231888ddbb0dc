"""A volume type and its extra specs, as the API shows it."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class VolumeType(base.Record):
    id: str
    name: str
    description: str | None
    is_public: bool
    extra_specs: dict
    # Its QoS specs, if any.
    qos_specs_id: str | None
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

    @classmethod
    def from_db(cls, row):
        return cls(id=row.id, name=row.name, description=row.description,
                   is_public=row.is_public,
                   extra_specs={s.key: s.value for s in row.extra_specs},
                   qos_specs_id=row.qos_specs_id,
                   created_at=row.created_at, updated_at=row.updated_at)

    @property
    def multiattach(self):
        """Volumes of this type may have several attachments (the extra
        spec ``multiattach="<is> True"``)."""
        return str(self.extra_specs.get('multiattach', '')).lower() == \
            '<is> true'
