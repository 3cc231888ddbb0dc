"""A flavor, and the copy of it an instance keeps."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class Flavor(base.Record):
    JSON_FIELDS = {'extra_specs': dict}

    id: int
    flavorid: str
    name: str
    memory_mb: int
    vcpus: int
    root_gb: int
    ephemeral_gb: int
    swap: int
    rxtx_factor: float
    is_public: bool
    disabled: bool
    description: str | None
    extra_specs: dict
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

    def snapshot(self):
        """What an instance keeps of its flavor (a flavor may go later)."""
        return {'id': self.flavorid, 'name': self.name,
                'memory_mb': self.memory_mb, 'vcpus': self.vcpus,
                'root_gb': self.root_gb, 'ephemeral_gb': self.ephemeral_gb,
                'swap': self.swap, 'extra_specs': dict(self.extra_specs)}
