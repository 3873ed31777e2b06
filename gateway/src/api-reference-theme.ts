/**
 * HomeReport's theme over Swagger UI's stylesheet (served after it as /api/docs/theme.css): Swagger
 * UI's own colours give white text on light method badges and light text on white (axe: colour
 * contrast, 2:1 to 3.7:1). Each colour here gives text 4.5:1 or more, as the web app's pages do.
 */
export const THEME_CSS = `/* Version badges */
.swagger-ui .info .title small,
.swagger-ui .info .title small pre.version {
  background-color: #475569;
  color: #ffffff;
}
.swagger-ui .info .title small.version-stamp,
.swagger-ui .info .title small.version-stamp pre.version {
  background-color: #3f6212;
}
/* Links and the document's address */
.swagger-ui .info a,
.swagger-ui .info .url {
  color: #1d4ed8;
}
/* Buttons drawn as coloured text on white */
.swagger-ui .btn.authorize {
  color: #047857;
  border-color: #047857;
}
.swagger-ui .btn.authorize svg {
  fill: #047857;
}
.swagger-ui .btn.cancel {
  color: #b91c1c;
  border-color: #b91c1c;
}
.swagger-ui .btn.execute {
  background-color: #1d4ed8;
  border-color: #1d4ed8;
}
/* Method badges: white text on a dark enough colour of the same hue */
.swagger-ui .opblock.opblock-get .opblock-summary-method {
  background: #1d4ed8;
}
.swagger-ui .opblock.opblock-post .opblock-summary-method {
  background: #047857;
}
.swagger-ui .opblock.opblock-put .opblock-summary-method {
  background: #b45309;
}
.swagger-ui .opblock.opblock-delete .opblock-summary-method {
  background: #b91c1c;
}
.swagger-ui .opblock.opblock-patch .opblock-summary-method {
  background: #0f766e;
}
.swagger-ui .opblock.opblock-head .opblock-summary-method,
.swagger-ui .opblock.opblock-options .opblock-summary-method {
  background: #6d28d9;
}
/* Text only a screen reader reads (the examples list's label) */
.hr-visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
}
`;
