/* A shared library without the plugin entry points: redfuzz must say it is not a plugin. */
int rf_test_not_a_plugin(void);
int rf_test_not_a_plugin(void) { return 0; }
