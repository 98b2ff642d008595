// The page is count.html (index.html is the relay's lobby); relative URLs, so that the built
// page works under any path the relay serves it at.
export default {
  base: "./",
  build: { rollupOptions: { input: "count.html" } },
};
