"""The committed configuration and policy samples match what the
generators write today (``tox -e genconfig``, ``tox -e genpolicy``)."""

import difflib
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# (tox env, generator's console script as a module call, its config file,
# the committed sample)
SAMPLES = [
    ('genconfig', 'from oslo_config import generator; generator.main()',
     'etc/tether-config-generator.conf', 'etc/tether/tether.conf.sample'),
    ('genpolicy',
     'from oslo_policy import generator; generator.generate_sample()',
     'etc/tether-policy-generator.conf', 'etc/tether/policy.yaml.sample'),
]


@pytest.mark.parametrize('env,generator,config,sample', SAMPLES,
                         ids=[s[0] for s in SAMPLES])
def test_sample_is_up_to_date(tmp_path, env, generator, config, sample):
    output = tmp_path / pathlib.Path(sample).name
    # The same generator the tox env runs, from this tree (the command
    # line's --output-file wins over the generator file's output_file).
    result = subprocess.run(
        [sys.executable, '-c', generator, '--config-file', config,
         '--output-file', str(output)],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    committed = ROOT / sample
    assert committed.exists(), (
        '%s is missing: run "tox -e %s" and commit it' % (sample, env))
    expected = output.read_text().splitlines(keepends=True)
    actual = committed.read_text().splitlines(keepends=True)
    if expected != actual:
        diff = ''.join(list(difflib.unified_diff(
            actual, expected, sample, 'generated'))[:60])
        pytest.fail('%s is out of date: run "tox -e %s" and commit the '
                    'result.\n%s' % (sample, env, diff), pytrace=False)
