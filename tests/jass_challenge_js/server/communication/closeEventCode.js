

export default {
    NORMAL: 1000,
    ABNORMAL: 1006
};