/** scripts/project.ts: what every child process the tests, bench and scripts start is given. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { baseEnv } from "./project.ts";

Deno.test("baseEnv() passes on the proxy, the CA bundles and DENO_DIR; the test's values win", () => {
  const parent: Record<string, string> = {
    PATH: "/usr/bin",
    HOME: "/home/me",
    DENO_DIR: "/cache/deno",
    HTTPS_PROXY: "http://proxy:3128",
    http_proxy: "http://proxy:3128",
    NO_PROXY: "internal.example,localhost",
    NODE_EXTRA_CA_CERTS: "/etc/proxy-ca.pem",
    DENO_CERT: "/etc/proxy-ca.pem",
    SSL_CERT_FILE: "/etc/ssl/bundle.pem",
    CURL_CA_BUNDLE: "/etc/ssl/bundle.pem",
    SECRET_TOKEN: "never passed on",
    LESSONS_DEBUG: "1",
  };
  const env = baseEnv({ HOME: "/tmp/h", PATH: "/tmp/bin" }, (name) => parent[name]);
  assertEquals(env, {
    PATH: "/tmp/bin",
    HOME: "/tmp/h",
    DENO_DIR: "/cache/deno",
    DENO_NO_UPDATE_CHECK: "1",
    HTTPS_PROXY: "http://proxy:3128",
    http_proxy: "http://proxy:3128",
    // The tests' servers listen on loopback, where no proxy can reach them.
    NO_PROXY: "internal.example,localhost,127.0.0.1,::1",
    no_proxy: "127.0.0.1,localhost,::1",
    NODE_EXTRA_CA_CERTS: "/etc/proxy-ca.pem",
    DENO_CERT: "/etc/proxy-ca.pem",
    SSL_CERT_FILE: "/etc/ssl/bundle.pem",
    CURL_CA_BUNDLE: "/etc/ssl/bundle.pem",
  });
  // No proxy: NO_PROXY is left as it was (here, absent).
  const direct = baseEnv({}, (name) => ({ DENO_DIR: "/d", PATH: "/bin" })[name]);
  assertEquals(direct, { PATH: "/bin", DENO_DIR: "/d", DENO_NO_UPDATE_CHECK: "1" });
  // A test that sets its own DENO_DIR (an empty cache) gets it.
  assertEquals(baseEnv({ DENO_DIR: "/empty" }, (name) => parent[name]).DENO_DIR, "/empty");
});
