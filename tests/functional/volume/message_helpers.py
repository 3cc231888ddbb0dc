"""User messages as a project reads them (GET /messages, 3.3+)."""

VERSION = '3.5'


def of(http, resource_uuid):
    """[(event_id, user_message)] of the messages about a resource."""
    resp = http.get('/messages?resource_uuid=%s' % resource_uuid,
                    headers={'OpenStack-API-Version': 'volume ' + VERSION})
    assert resp.status_code == 200, resp.text
    return [(m['event_id'], m['user_message'])
            for m in resp.json()['messages']]
