"""tether-manage status upgrade check: the checks (oslo.upgradecheck)."""

import os
import re
import traceback
import types

from alembic import script as alembic_script
from oslo_config import cfg
from oslo_db import exception as db_exc
from oslo_policy import opts as policy_opts
from oslo_policy import policy
from oslo_upgradecheck import upgradecheck
from oslo_utils import versionutils
import sqlalchemy as sa

from tether.compute import version as compute_version
from tether.db import migration
from tether.objects import fields
from tether.policies import registry as policy_registry
from tether import rpc
from tether.volume.backup import version as backup_version
from tether.volume import version as volume_version

CONF = cfg.CONF
Code = upgradecheck.Code
Result = upgradecheck.Result

# The oldest tether-compute the compute API of this tree still works
# with (tether.compute.version.SERVICE_VERSION is the newest); a host
# below it is reported by the check.
MIN_COMPUTE_SERVICE_VERSION = compute_version.OLDEST_SUPPORTED_SERVICE_VERSION

# The checks run before the services are upgraded, on the schema the
# running code left: they read with SQLAlchemy core and name only the
# columns they need, never through the models of this tree.
_SERVICES = sa.table('services', sa.column('host'), sa.column('binary'),
                     sa.column('version'))
_VOLUME_SERVICES = sa.table('services', sa.column('host'),
                            sa.column('binary'),
                            sa.column('rpc_current_version'))

# The APIs whose RPC clients [upgrade_levels] pins: (option; the database
# of its services; binary; services table; the column and the RPC version
# it records; RPC versions and their objects).
_PINNED_APIS = (
    ('volume', 'volume', fields.ServiceBinary.VOLUME, _VOLUME_SERVICES,
     'rpc_current_version', volume_version.rpc_version_of,
     volume_version.RPC_OBJECT_VERSIONS),
    ('backup', 'volume', fields.ServiceBinary.BACKUP, _VOLUME_SERVICES,
     'rpc_current_version', backup_version.rpc_version_of,
     backup_version.RPC_OBJECT_VERSIONS),
    ('compute', 'compute', fields.ServiceBinary.COMPUTE, _SERVICES,
     'version', compute_version.rpc_version_of,
     compute_version.RPC_OBJECT_VERSIONS),
)

# A reference to another rule inside a check string ("rule:admin_api").
_RULE_REFERENCE = re.compile(r'\brule:([^\s()]+)')

_DB_ERRORS = (sa.exc.SQLAlchemyError, db_exc.DBError)


def _as_tuple(version):
    return versionutils.convert_version_to_tuple(version)


def _pin_report(option, binary, history, services):
    """(code, text) of ``[upgrade_levels] <option>`` against ``services``,
    the (host, RPC version) of each registered ``binary``."""
    try:
        configured = CONF.upgrade_levels[option]
    except ValueError as exc:
        return Code.FAILURE, '[upgrade_levels] %s: %s' % (option, exc)
    newest = max(history, key=_as_tuple)
    setting = '[upgrade_levels] %s = %s' % (option, configured or '(unset)')
    if not services:
        return Code.SUCCESS, '%s: no %s has registered.' % (setting, binary)
    oldest = min((v for _host, v in services), key=_as_tuple)
    if not configured:
        pin = newest
    elif configured == 'auto':
        # What the API chooses (tether.rpc.version_pin) when it starts.
        pin = min(oldest, newest, key=_as_tuple)
    elif rpc.pin_at(history, configured) is None:
        return Code.FAILURE, (
            '%s: this code speaks %s RPC versions %s.'
            % (setting, binary, ', '.join(sorted(history, key=_as_tuple))))
    else:
        pin = min(configured, newest, key=_as_tuple)
    older = ['%s (%s)' % (host, v) for host, v in sorted(services)
             if _as_tuple(v) < _as_tuple(pin)]
    if older:
        return Code.WARNING, (
            '%s: the %s API of this release sends %s RPC version %s, '
            'which these older services do not understand: %s. Set it to '
            '"auto" (or %s) until they are upgraded.'
            % (setting, option, binary, pin, ', '.join(older), oldest))
    text = ('%s: the %s API sends %s RPC version %s, which all %d '
            'service(s) read.' % (setting, option, binary, pin,
                                  len(services)))
    if _as_tuple(pin) < _as_tuple(newest) <= _as_tuple(oldest):
        text += (' All are at %s, the version of this release: unset the '
                 'pin to send it.' % newest)
    elif configured == 'auto':
        text += (' (Each API process chooses once, at its first call: '
                 'restart or reload the APIs after the last upgrade.)')
    return Code.SUCCESS, text


def _first_line(exc):
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _head(database):
    config = migration._alembic_config(None, database)
    return alembic_script.ScriptDirectory.from_config(
        config).get_current_head()


def _policy_files():
    """The policy file and policy directory files oslo.policy would load,
    and whether [oslo_policy]policy_file was set by the operator."""
    policy_opts.set_defaults(CONF)  # registers [oslo_policy]
    name = CONF.oslo_policy.policy_file
    location = CONF.get_location('policy_file', 'oslo_policy')
    configured = (location is not None and
                  location.location == cfg.Locations.user)
    path = CONF.find_file(name)
    files = [path] if path else []
    for directory in CONF.oslo_policy.policy_dirs:
        found = CONF.find_file(directory)
        if not found or not os.path.isdir(found):
            continue
        for root, _dirs, names in sorted(os.walk(found)):
            files += [os.path.join(root, n) for n in sorted(names)]
    return name, configured, files


class Checks(upgradecheck.UpgradeCommands):
    """What must be true before the services of this tree start."""

    def _check_database(self, database):
        group = migration.DATABASES[database].group
        head = _head(database)
        try:
            current = migration.db_version(database=database)
        except _DB_ERRORS as exc:
            return Result(Code.FAILURE,
                          'The %s database ([%s] connection) cannot be '
                          'read: %s' % (database, group, _first_line(exc)))
        if current == head:
            return Result(Code.SUCCESS, 'The %s database is at revision '
                                        '%s, the head.' % (database, head))
        found = ('has no tether schema' if current is None
                 else 'is at revision %s' % current)
        return Result(Code.FAILURE,
                      'The %s database ([%s] connection) %s; this code '
                      'needs revision %s. Run "tether-manage db sync '
                      '--database %s".' % (database, group, found, head,
                                           database))

    def _check_compute_versions(self):
        query = (sa.select(_SERVICES.c.host, _SERVICES.c.version)
                 .where(_SERVICES.c.binary == fields.ServiceBinary.COMPUTE)
                 .order_by(_SERVICES.c.host))
        try:
            engine = migration.DATABASES['compute'].get_engine()
            with engine.connect() as connection:
                rows = connection.execute(query).all()
        except _DB_ERRORS as exc:
            return Result(Code.FAILURE,
                          'The compute services cannot be read from the '
                          'compute database ([compute_database] '
                          'connection): %s' % _first_line(exc))
        if not rows:
            return Result(Code.SUCCESS, 'No tether-compute has registered '
                                        'yet.')
        old = ['%s (version %s)' % (host, version or 0)
               for host, version in rows
               if (version or 0) < MIN_COMPUTE_SERVICE_VERSION]
        if old:
            return Result(Code.WARNING,
                          'These tether-compute services are older than '
                          'version %d, the oldest this compute API works '
                          'with: %s. Upgrade them, or delete the records '
                          'of hosts that are gone ("openstack compute '
                          'service delete").'
                          % (MIN_COMPUTE_SERVICE_VERSION, ', '.join(old)))
        details = ('%d tether-compute service(s), all at version %d or '
                   'newer.' % (len(rows), MIN_COMPUTE_SERVICE_VERSION))
        behind = ['%s (version %s)' % (host, version)
                  for host, version in rows
                  if version < compute_version.SERVICE_VERSION]
        if behind:
            # Supported, but without what the newer versions added.
            details += (' Not yet at version %d, the version of this '
                        'release: %s.' % (compute_version.SERVICE_VERSION,
                                          ', '.join(behind)))
        return Result(Code.SUCCESS, details)

    def _check_rpc_pins(self):
        reports = []
        for (option, database, binary, table, column, rpc_version_of,
             history) in _PINNED_APIS:
            query = (sa.select(table.c.host, table.c[column])
                     .where(table.c.binary == binary))
            try:
                engine = migration.DATABASES[database].get_engine()
                with engine.connect() as connection:
                    rows = connection.execute(query).all()
            except _DB_ERRORS as exc:
                reports.append((Code.FAILURE, 'The %s services cannot be '
                                'read from the %s database: %s.'
                                % (binary, database, _first_line(exc))))
                continue
            reports.append(_pin_report(
                option, binary, history,
                [(host, rpc_version_of(v)) for host, v in rows]))
        return Result(max(code for code, _text in reports),
                      ' '.join(text for _code, text in reports))

    def _check_policy_file(self):
        name, configured, files = _policy_files()
        if not files:
            if configured:
                return Result(Code.WARNING,
                              'The policy file %s ([oslo_policy] '
                              'policy_file) is not found: the defaults in '
                              'code apply.' % name)
            return Result(Code.SUCCESS, 'No policy file: the defaults in '
                                        'code apply.')
        defaults = {}
        for rule in policy_registry.list_rules():
            defaults[rule.name] = rule.check_str
            if getattr(rule, 'deprecated_rule', None):
                defaults[rule.deprecated_rule.name] = (
                    rule.deprecated_rule.check_str)
        overrides = {}
        for path in files:
            try:
                with open(path) as f:
                    rules = policy.parse_file_contents(f.read())
            except (OSError, ValueError) as exc:
                reason = ' '.join(line.strip() for line in
                                  str(exc).splitlines() if line.strip())
                return Result(Code.FAILURE, 'The policy file %s cannot be '
                                            'read: %s' % (path, reason))
            overrides.update({n: (path, check)
                              for n, check in (rules or {}).items()})
        check_strings = list(defaults.values()) + [
            str(check) for _path, check in overrides.values()]
        referenced = {ref for check in check_strings
                      for ref in _RULE_REFERENCE.findall(check)}
        undefined = sorted('%s (in %s)' % (ref, overrides[n][0])
                           for n, (_path, check) in overrides.items()
                           for ref in _RULE_REFERENCE.findall(str(check))
                           if ref not in defaults and ref not in overrides)
        if undefined:
            return Result(Code.FAILURE,
                          'The policy file names rules that are defined '
                          'nowhere, which deny every request they guard: '
                          '%s.' % ', '.join(undefined))
        unknown = sorted('%s (in %s)' % (n, path)
                         for n, (path, _check) in overrides.items()
                         if n not in defaults and n not in referenced)
        if unknown:
            return Result(Code.WARNING,
                          'The policy file sets rules that tether does not '
                          'have, and that no rule refers to: they change '
                          'nothing (a misspelled name?): %s. '
                          'etc/tether/policy.yaml.sample lists every rule.'
                          % ', '.join(unknown))
        return Result(Code.SUCCESS, '%s: %d rule(s), all known.'
                      % (', '.join(files), len(overrides)))

    _upgrade_checks = (
        ('Volume database schema', (_check_database,
                                    {'database': 'volume'})),
        ('Compute database schema', (_check_database,
                                     {'database': 'compute'})),
        ('Compute service versions', _check_compute_versions),
        ('RPC version pins', _check_rpc_pins),
        ('Policy file', _check_policy_file),
    )


def upgrade_check(json_output=False):
    """Run every check, print the results; return the worst code (or 255
    if a check itself broke, as oslo.upgradecheck's runner does)."""
    # UpgradeCommands.check() reads --json from the module's CONF, which
    # oslo.upgradecheck's own main() sets; tether-manage parses its own
    # command line, so it hands over just that flag.
    upgradecheck.CONF = types.SimpleNamespace(
        command=types.SimpleNamespace(json=json_output))
    try:
        return int(Checks().check())
    except Exception:
        print('Error:\n%s' % traceback.format_exc())
        return 255
