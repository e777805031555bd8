"""What the API's routes answer, one module per resource: the models that ``/openapi.json``
describes and that shape every JSON answer (see docs/api.md)."""
