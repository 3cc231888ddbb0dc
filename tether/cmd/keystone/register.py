"""Who is in a Keystone and what its catalog holds: projects, users with
their roles, and services with their endpoints, registered through
openstacksdk as an administrator (tether-aio --keystone, and the
integration deployment's tools/integration/identity.py).

Every call may be made again on the same Keystone: what is there is
kept (a user's password and roles are set again, a service's endpoints
replaced by the given URL)."""

INTERFACES = ('public', 'internal', 'admin')


def _roles(identity):
    roles = {r.name: r for r in identity.roles()}
    if 'service' not in roles:
        # Keystone's bootstrap makes admin, member and reader, and since
        # 2023.2 service too.
        roles['service'] = identity.create_role(name='service')
    return roles


def projects(identity, names, domain_id='default'):
    """{name: project} of ``names``, made where missing."""
    found = {}
    for name in sorted(set(names)):
        found[name] = (identity.find_project(name, domain_id=domain_id)
                       or identity.create_project(name=name,
                                                  domain_id=domain_id))
    return found


def user(identity, name, password, project, roles, domain_id='default'):
    """The user ``name`` with ``password``, of default project
    ``project``, with ``roles`` (role objects) on it."""
    found = identity.find_user(name, domain_id=domain_id)
    if found is None:
        found = identity.create_user(
            name=name, password=password, domain_id=domain_id,
            default_project_id=project.id)
    else:
        found = identity.update_user(found, password=password,
                                     default_project_id=project.id)
    for role in roles:
        identity.assign_project_role_to_user(project, found, role)
    return found


def register(conn, users, catalog, region, description='tether'):
    """Register ``users`` ({name: (project name, [role names],
    password)}) and ``catalog`` ([(service name, service type, URL)],
    one endpoint per interface in ``region``); {project name: ID} of the
    users' projects."""
    identity = conn.identity
    roles = _roles(identity)
    made = projects(identity, [p for p, _r, _pw in users.values()])
    for name, (project, role_names, password) in users.items():
        user(identity, name, password, made[project],
             [roles[r] for r in role_names])
    for name, service_type, url in catalog:
        service = next((s for s in identity.services()
                        if s.name == name and s.type == service_type), None)
        if service is None:
            service = identity.create_service(
                name=name, type=service_type, description=description)
        for endpoint in identity.endpoints(service_id=service.id):
            identity.delete_endpoint(endpoint)
        for interface in INTERFACES:
            identity.create_endpoint(service_id=service.id,
                                     interface=interface, url=url,
                                     region_id=region)
    return {name: project.id for name, project in made.items()}
