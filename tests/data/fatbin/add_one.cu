__global__ void add_one(float *x) { x[threadIdx.x] += 1.0f; }
