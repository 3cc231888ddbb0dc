"""A disk of an instance (a block device mapping): a volume, from the
attach request until the volume is detached, or the local root disk of
a server made of an image."""

import dataclasses
import datetime

from tether.objects import base
from tether.objects import fields


@dataclasses.dataclass(frozen=True)
class BlockDeviceMapping(base.Record):
    JSON_FIELDS = {'connection_info': None}

    id: int
    uuid: str
    instance_uuid: str
    # volume -> volume, image/snapshot/blank -> volume, image -> local
    # (fields.BdmSourceType, fields.BdmDestinationType).
    source_type: str
    destination_type: str
    image_id: str | None
    # None until the compute host made the volume of an image, a
    # snapshot or nothing; None for a local disk.
    volume_id: str | None
    attachment_id: str | None
    device_name: str | None
    boot_index: int | None
    delete_on_termination: bool
    tag: str | None
    volume_size: int | None
    # The volume snapshot the volume is made of (source snapshot).
    snapshot_id: str | None
    # attaching -> attached -> detaching (fields.BdmStatus).
    status: str
    # From the volume service; admin-only, never logged.
    connection_info: dict | None
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

    @property
    def is_volume(self):
        return self.destination_type == fields.BdmDestinationType.VOLUME

    @property
    def is_local_image(self):
        """The local root disk made of an image."""
        return (self.destination_type == fields.BdmDestinationType.LOCAL
                and self.source_type == fields.BdmSourceType.IMAGE)

    @property
    def made_by_host(self):
        """A volume the compute host makes of an image, of a snapshot or
        empty (destination volume, any source but a volume)."""
        return (self.is_volume and
                self.source_type != fields.BdmSourceType.VOLUME)
