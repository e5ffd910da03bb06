// Transitional: tests/controller/rig.h and riser_early_out_test.cpp include
// "scenario/world.h", which is now scenario/load/world.h. Their folder is being
// reworked elsewhere; once their include reads "scenario/load/world.h", delete
// this file.
#pragma once

#include "scenario/load/world.h"
