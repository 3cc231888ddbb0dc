"""A tether-compute service record: one hypervisor host, its node, and
what it last reported."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class ComputeService(base.ReportsIn, base.Record):
    JSON_FIELDS = {'stats': dict, 'traits': list}

    id: int
    uuid: str
    host: str
    binary: str
    topic: str | None
    availability_zone: str | None
    disabled: bool
    disabled_reason: str | None
    forced_down: bool
    report_count: int
    heartbeat_at: datetime.datetime | None
    # What the service can do (tether.compute.version).
    version: int
    rpc_current_version: str | None
    hypervisor_hostname: str | None
    host_ip: str | None
    # Capacity, usage, hypervisor and cpu_info, as last reported.
    stats: dict
    traits: list
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

    def is_up(self, down_time):
        return not self.forced_down and super().is_up(down_time)
