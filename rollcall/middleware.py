"""Refuse NUL characters in request parameters before any view sees them.

Forms already refuse them, but views that read a parameter directly would pass
one to PostgreSQL, which rejects it with an error instead of a clear message.
"""

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest


class RejectNulCharactersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        sources = [request.GET, request.POST] if request.method == "POST" else [request.GET]
        for params in sources:
            for key, values in params.lists():
                if "\x00" in key or any("\x00" in value for value in values):
                    return HttpResponseBadRequest(
                        "Text cannot contain NUL characters.", content_type="text/plain"
                    )
        return self.get_response(request)
