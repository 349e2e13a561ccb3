// /docs: Swagger UI over this server's spec (a file, not an inline script: the page's CSP runs none).
window.ui = SwaggerUIBundle({
  url: "openapi.yaml", dom_id: "#swagger-ui", validatorUrl: null, deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis], layout: "BaseLayout"
});
