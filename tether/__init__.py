"""tether: an OpenStack-compatible control plane for block storage and
compute."""

from oslo_service import backend as _service_backend

# tether runs on native threads. oslo.messaging imports oslo.service, whose
# default backend loads eventlet (and warns that it is deprecated): choose
# the threading backend before anything asks for one.
try:
    _service_backend.init_backend(_service_backend.BackendType.THREADING)
except _service_backend.exceptions.BackendAlreadySelected:
    pass
