"""The HTTP handler: Django's ASGI handler with its middleware run as one synchronous chain.

Django runs an async-capable middleware in async mode whenever the handler is async, and
then calls each of its request and response hooks through a thread hop of its own. One
synchronous middleware in the list (WhiteNoise) splits the chain, so a request went back and
forth between the event loop and its thread a dozen times, more than the work of a small
view. Run synchronously, the whole chain and the view make one hop: the event loop keeps
the sockets, the request's thread does the rest, as under WSGI.
"""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class SyncChainASGIHandler(ASGIHandler):
    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)
