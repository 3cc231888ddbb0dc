"""A user's key pair (``/os-keypairs``)."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class KeyPair(base.Record):
    id: int
    name: str
    user_id: str
    fingerprint: str
    public_key: str
    type: str
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None
