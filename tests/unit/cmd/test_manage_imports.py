"""tether-manage reads service versions without loading a driver."""

import subprocess
import sys

# The compute manager imports the libvirt driver; the volume manager, the
# volume drivers.
NOT_LOADED = ('tether.compute.manager', 'tether.volume.manager',
              'tether.drivers', 'libvirt')


def test_tether_manage_loads_no_manager_and_no_driver():
    code = ('import sys; import tether.cmd.manage; '
            'print("\\n".join(sorted(sys.modules)))')
    result = subprocess.run([sys.executable, '-c', code],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    loaded = result.stdout.split()
    assert 'tether.compute.version' in loaded
    assert [m for m in loaded if m.startswith(NOT_LOADED)] == []
