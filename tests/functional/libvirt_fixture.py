"""A usable qemu:///system for tests: started if needed, skipped if absent.

``tools/start-libvirt.sh`` does the work (the /dev/kvm mode, virtlogd,
libvirtd under tini, waiting until it answers); this module runs it once
per test process and names the domains a test makes so that teardown can
remove every one of them.
"""

import os
import shutil
import subprocess
import tempfile
import uuid

import pytest
from oslo_config import cfg

from tether.conf import base as conf_base
from tether.conf import libvirt as conf_libvirt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
START_SCRIPT = os.path.join(ROOT, 'tools', 'start-libvirt.sh')
URI = 'qemu:///system'
# Every domain a test makes is named with this prefix, then a token of the
# test process, so that a cleanup never touches someone else's guests.
PREFIX = 'tether-test-'
SESSION_TOKEN = uuid.uuid4().hex[:8]

_state = None   # (outcome, reason) of the first ensure_libvirt()


def _missing():
    path = os.environ.get('PATH', '') + ':/usr/sbin:/sbin'
    for cmd in ('libvirtd', 'virtlogd', 'virsh', 'qemu-system-x86_64'):
        if shutil.which(cmd, path=path) is None:
            return '%s is not installed' % cmd
    try:
        import libvirt  # noqa: F401
    except ImportError:
        return 'the libvirt-python module is not installed'
    return None


def _start():
    missing = _missing()
    if missing:
        return 'skip', ('%s (bindep profile test: tools/install-deps.sh '
                        'test installs it)' % missing)
    proc = subprocess.run([START_SCRIPT], capture_output=True, text=True,
                          timeout=300)
    if proc.returncode == 3:
        return 'skip', proc.stderr.strip()
    if proc.returncode:
        return 'fail', '%s exited %s: %s' % (START_SCRIPT, proc.returncode,
                                             proc.stderr.strip())
    return 'ok', None


def ensure_libvirt():
    """Make qemu:///system answer; skip the test if libvirt is absent."""
    global _state
    if _state is None:
        _state = _start()
    outcome, reason = _state
    if outcome == 'skip':
        pytest.skip(reason)
    if outcome == 'fail':
        pytest.fail(reason, pytrace=False)


def domain_prefix(label):
    return '%s%s-%s-' % (PREFIX, SESSION_TOKEN, label)


def domain_name(label):
    return domain_prefix(label) + uuid.uuid4().hex[:6]


def remove_domains(prefix):
    """Destroy and undefine every domain whose name starts with ``prefix``."""
    import libvirt
    conn = libvirt.open(URI)
    try:
        for dom in conn.listAllDomains(0):
            if not dom.name().startswith(prefix):
                continue
            try:
                if dom.isActive():
                    dom.destroy()
                dom.undefineFlags(libvirt.VIR_DOMAIN_UNDEFINE_MANAGED_SAVE
                                  | libvirt.VIR_DOMAIN_UNDEFINE_NVRAM)
            except libvirt.libvirtError as exc:
                if exc.get_error_code() != libvirt.VIR_ERR_NO_DOMAIN:
                    raise
    finally:
        conn.close()


def share_dir(prefix='tether-share-'):
    """A directory standing in for a mounted share (or another that QEMU
    must reach: the instances path).

    QEMU runs as libvirt-qemu, so the directory must be searchable by
    others: pytest's tmp_path (under a 0700 directory) is not.
    """
    path = tempfile.mkdtemp(prefix=prefix)
    os.chmod(path, 0o755)
    return path


def libvirt_conf(**overrides):
    conf = cfg.ConfigOpts()
    conf.register_opts(conf_base.default_opts)
    conf.register_opts(conf_libvirt.libvirt_opts, group='libvirt')
    conf([], project='tether-test')
    for key, value in overrides.items():
        conf.set_override(key, value, group='libvirt')
    return conf.libvirt


def make_driver(instances_path=None, **overrides):
    """A libvirt driver of the ``[libvirt]`` options ``overrides``; its
    guests' console logs go under ``instances_path`` (without one, guests
    get no logged console)."""
    # Imported here: without libvirt-python, libvirt_ready skips first.
    from tether.drivers.virt.libvirt import driver as libvirt_driver
    return libvirt_driver.LibvirtDriver(libvirt_conf(**overrides),
                                        'test-host', instances_path)
