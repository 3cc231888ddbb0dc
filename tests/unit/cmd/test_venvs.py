"""The requirements a service's virtualenv is made from."""

from tether.cmd import venvs


def test_comments_and_blank_lines_do_not_remake_a_virtualenv(tmp_path):
    first = tmp_path / 'a.txt'
    first.write_text('glance==33.*\n# the image service\ngunicorn\n')
    second = tmp_path / 'b.txt'
    second.write_text('# another comment\nglance==33.*  # pinned\n\n'
                      'gunicorn\n')
    other = tmp_path / 'c.txt'
    other.write_text('glance==34.*\ngunicorn\n')
    assert venvs.digest(first) == venvs.digest(second)
    assert venvs.digest(first) != venvs.digest(other)


def test_a_virtualenv_made_from_the_same_requirements_is_kept(tmp_path):
    requirements = tmp_path / 'requirements.txt'
    requirements.write_text('# nothing to install\n')
    venv = tmp_path / 'venv'
    venv.mkdir()
    (venv / venvs.STAMP).write_text(venvs.digest(requirements) + '\n')
    (venv / 'kept').write_text('')
    assert venvs.ensure(str(venv), str(requirements), 'test',
                        log=lambda _: None) == 0.0
    assert (venv / 'kept').exists()
