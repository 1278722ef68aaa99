// Starts GraphiQL (ours, not part of the npm builds): a file rather than an
// inline script, so the page's Content-Security-Policy admits no inline
// script. Queries and mutations go to /graphql; put the token in the
// headers pane: {"Authorization": "Bearer arb_..."}
"use strict";

const fetcher = GraphiQL.createFetcher({ url: "/graphql" });
ReactDOM.createRoot(document.getElementById("graphiql")).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultEditorToolsVisibility: true,
    defaultHeaders: '{"Authorization": "Bearer "}',
  }),
);
