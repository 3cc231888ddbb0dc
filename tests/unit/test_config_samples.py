"""The committed configuration and policy samples match what the
generators write today (``tox -e genconfig``, ``tox -e genpolicy``).

The policy sample holds tether's rules only and must match exactly. The
configuration sample also lists the options of oslo.db, oslo.log,
oslo.messaging, oslo.policy and keystonemiddleware, which change with
their releases (CI installs the newest): for it, every option block of
tether's own namespace must stand in the committed sample, under its
group, as the generator writes it today.
"""

import difflib
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# (tox env, generator's console script as a module call, its config file,
# the committed sample)
SAMPLES = [
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


def _sections(text):
    """{group: [blocks]} of a configuration sample (blocks: the runs of
    lines between blank lines)."""
    sections, group, block = {}, 'DEFAULT', []
    for line in text.splitlines() + ['']:
        if line.startswith('[') and line.endswith(']'):
            group = line[1:-1]
            sections.setdefault(group, [])
            continue
        if line.strip():
            block.append(line)
        elif block:
            sections.setdefault(group, []).append('\n'.join(block))
            block = []
    return sections


def test_config_sample_has_every_tether_option(tmp_path):
    output = tmp_path / 'tether-only.conf'
    result = subprocess.run(
        [sys.executable, '-c',
         'from oslo_config import generator; generator.main()',
         '--namespace', 'tether', '--wrap-width', '79',
         '--output-file', str(output)],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    ours = _sections(output.read_text())
    committed = _sections(
        (ROOT / 'etc/tether/tether.conf.sample').read_text())
    stale = ['[%s]\n%s' % (group, block)
             for group, blocks in ours.items() for block in blocks
             if block not in committed.get(group, ())]
    assert ours and not stale, (
        'etc/tether/tether.conf.sample is out of date: run "tox -e '
        'genconfig" and commit the result. Not in it:\n%s'
        % '\n\n'.join(stale[:5]))
