"""What the image API said when it refused a request, from its JSON or
its HTML fault (Glance's webob pages)."""

import pytest

from tether import images


class _Response:
    """An HTTP response as requests gives it (a process edge)."""

    def __init__(self, status_code, text, json_body=None):
        self.status_code = status_code
        self.text = text
        self._json = json_body

    def json(self):
        if self._json is None:
            raise ValueError('not JSON')
        return self._json


GLANCE_PAGE = '''<html>
 <head>
  <title>403 Forbidden</title>
 </head>
 <body>
  <h1>403 Forbidden</h1>
  Access was denied to this resource.<br /><br />
Attribute &#x27;os_glance_x&#x27; is reserved.


 </body>
</html>'''


@pytest.mark.parametrize('resp,reason', [
    (_Response(403, GLANCE_PAGE),
     "Access was denied to this resource. Attribute 'os_glance_x' is "
     "reserved. (403)"),
    (_Response(400, '{}', {'message': 'Bad name', 'code': '400'}),
     'Bad name (400)'),
    (_Response(413, 'plain text\nover limit'), 'plain text over limit (413)'),
], ids=['html', 'json', 'text'])
def test_the_reason_of_a_refusal(resp, reason):
    assert images._reason(resp) == reason
